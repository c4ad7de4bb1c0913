import type { MoviePage } from '../core/listing'
import type { MovieLog } from '../core/movie-log'

/** The full list goes out a page at a time: memory holds one page, whatever the log's size. */
export const STREAM_PAGE_SIZE = 1000

/**
 * An export's page (NDJSON, CSV): what a client that stopped reading holds on the server, so
 * small enough that hundreds of them do not take its memory (100 movies of the longest notes
 * are 4 MB; 1,000 took 11 MB each of RSS, issue 37), large enough to cost few store reads.
 */
export const EXPORT_PAGE_SIZE = 100

/**
 * The whole log as one JSON array, read and sent a page at a time. A store failure after the
 * first page aborts the body: the client sees a broken response, never a short list.
 */
export function streamAllMovies(
  log: Pick<MovieLog, 'listMovies'>,
  first: MoviePage,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let page = first
  let opened = false
  return new ReadableStream({
    async pull(controller) {
      if (page.movies.length > 0) {
        const items = page.movies.map((movie) => JSON.stringify(movie)).join(',')
        controller.enqueue(encoder.encode((opened ? ',' : '[') + items))
        opened = true
      }
      if (page.nextCursor === null) {
        controller.enqueue(encoder.encode(opened ? ']' : '[]'))
        controller.close()
        return
      }
      page = await log.listMovies({ limit: STREAM_PAGE_SIZE, cursor: page.nextCursor })
    },
  })
}
