import { InvalidPageRequestError } from '../core/errors'
import type { ListMoviesOptions } from '../core/listing'
import type { MovieLog } from '../core/movie-log'
import type { MovieSort } from '../core/range'
import { moviesJson } from './movie-json'
import { JSON_TYPE, jsonReply, type Reply } from './reply'
import { STREAM_PAGE_SIZE, streamAllMovies } from './stream'

const PAGE_PARAMETER = /^[1-9][0-9]{0,15}$/
// The listing's parameters, passed on to the core as given and kept in every next link.
const LISTING_PARAMETERS = ['sort', 'from', 'to', 'q'] as const

/**
 * `GET /movies`: every movie as one JSON array (streamed a page at a time), or with `limit` or
 * `cursor` one page and a `Link` to the next; `sort`, `from`, `to`, `q` and `tag` apply to both.
 * `streamed` opens the whole list when it takes more than a page, as it does an export: it
 * holds a connection and a store reader until its client has read it.
 */
export async function listMovies(
  log: Pick<MovieLog, 'listMovies'>,
  url: URL,
  maxPageSize: number,
  collectionUrl: string,
  streamed: (open: () => Promise<Reply>) => Promise<Reply>,
): Promise<Reply> {
  const { searchParams } = url
  const listing = listingOf(url)
  const limitParameter = searchParams.get('limit')
  const cursor = searchParams.get('cursor')
  if (limitParameter === null && cursor === null) {
    // The first page is read before answering, so a store that is down still gets a 503.
    const first = await log.listMovies({ ...listing, limit: STREAM_PAGE_SIZE })
    if (first.nextCursor === null) return jsonReply(200, moviesJson(first.movies), varyAccept())
    const headers = { 'content-type': JSON_TYPE, vary: 'accept' }
    return streamed(async () => ({ status: 200, headers, body: streamAllMovies(log, first) }))
  }
  if (limitParameter !== null && !PAGE_PARAMETER.test(limitParameter)) {
    throw new InvalidPageRequestError([{ path: 'limit', message: 'must be a positive integer' }])
  }
  const limit = Math.min(
    limitParameter === null ? maxPageSize : Number(limitParameter),
    maxPageSize,
  )
  const page = await log.listMovies({ ...listing, limit, cursor })
  const headers = varyAccept()
  if (page.nextCursor !== null) {
    const { tag, ...single } = listing
    const query = new URLSearchParams({ ...single, limit: String(limit), cursor: page.nextCursor })
    for (const each of tag ?? []) query.append('tag', each)
    headers.link = `<${collectionUrl}?${query}>; rel="next"`
  }
  return jsonReply(200, moviesJson(page.movies), headers)
}

type ListingParameters = Pick<ListMoviesOptions, 'sort' | 'from' | 'to' | 'q'> & {
  tag?: string[]
}

/**
 * The listing's parameters as `listMovies` takes them (it checks them): the list's and the
 * export's. `tag` may repeat (`?tag=a&tag=b`: movies with both).
 */
export function listingOf(url: URL): ListingParameters {
  const listing: ListingParameters = {}
  for (const name of LISTING_PARAMETERS) {
    const value = url.searchParams.get(name)
    if (value !== null) listing[name] = value as MovieSort
  }
  const tags = url.searchParams.getAll('tag')
  if (tags.length > 0) listing.tag = tags
  return listing
}

export function varyAccept(): Record<string, string> {
  return { vary: 'accept' }
}
