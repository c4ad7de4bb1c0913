/**
 * `GET /movies` as NDJSON or CSV (CONTRACT's export rows): what the list would show, sort, range
 * and `q` applying, limit and cursor not, sent a page at a time so memory holds one page.
 */

import type { Movie } from '../core/movie'
import type { MovieLog } from '../core/movie-log'
import { listTypeOf } from './accept'
import { listingOf } from './list'
import type { Reply } from './reply'
import { EXPORT_PAGE_SIZE } from './stream'

interface ExportFormat {
  type: string
  /** The text before the first movie, and the text of a page of movies. */
  writer(): Promise<{ header: string; lines: (movies: readonly Movie[]) => string }>
}

const EXPORTS: Record<'ndjson' | 'csv', ExportFormat> = {
  ndjson: {
    type: 'application/x-ndjson',
    writer: async () => ({
      header: '',
      lines: (movies) => movies.map((m) => `${JSON.stringify(m)}\n`).join(''),
    }),
  },
  csv: {
    type: 'text/csv; charset=utf-8; header=present',
    // Loaded by the first CSV export, not with every handler: the CSV writer (csv-stringify)
    // is 8 of the 23 files a process otherwise loads to answer its first request.
    writer: async () => {
      const { movieCsvHeader, movieCsvLines } = await import('../formats/movie-csv')
      return { header: movieCsvHeader(), lines: movieCsvLines }
    },
  },
}

/**
 * The export `request` asks for by its Accept header, or `undefined` when it wants JSON (or
 * nothing this route has: the JSON route then answers 406).
 */
export async function exportReply(
  log: MovieLog,
  request: Request,
  url: URL,
): Promise<Reply | undefined> {
  const kind = listTypeOf(request.headers.get('accept'))
  if (kind !== 'ndjson' && kind !== 'csv') return undefined
  const format = EXPORTS[kind]
  const { header, lines } = await format.writer()
  const options = listingOf(url)
  // The first page is read before answering, so a store that is down still gets a 503.
  let page = await log.listMovies({ ...options, limit: EXPORT_PAGE_SIZE })
  let first: string | null = header + lines(page.movies)
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (first !== null) {
          controller.enqueue(encoder.encode(first))
          first = null
        } else if (page.nextCursor === null) {
          controller.close()
        } else {
          // A store failure here aborts the body: a broken response, never a short export.
          page = await log.listMovies({
            ...options,
            limit: EXPORT_PAGE_SIZE,
            cursor: page.nextCursor,
          })
          controller.enqueue(encoder.encode(lines(page.movies)))
        }
      },
      // No page read ahead: the store is read only as the client reads, so an export whose client
      // stopped reading holds at most the page it is sending.
    },
    { highWaterMark: 0 },
  )
  return { status: 200, headers: { 'content-type': format.type, vary: 'accept' }, body }
}
