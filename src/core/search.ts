import type { Position } from './cursor'
import { byDate, byId, type LogDriver } from './driver'
import { FEW_IN_RANGE } from './in-range'
import type { Movie } from './movie'
import { inRange, type Listing } from './range'
import { answers, movieWords, type WordQuery } from './words'

const WALK_CHUNK = 500

type Read = (listing: Listing, after: Position | undefined, wanted: number) => Promise<Movie[]>

/**
 * A page of a search, in the listing's order, within its range, after `after`: the driver's
 * own `searchPage` when it has one (an index of words in the listing's order). Else the words'
 * index gives the matches: when they are few (at most FEW_IN_RANGE), they are ordered here;
 * when many, they are dense in the log, so the listing itself is walked, keeping the movies
 * that match (the same tokenizer as the index), and a page reads about `wanted` divided by
 * their share of the log. Either way no page reads the whole log.
 */
export async function searchPage(
  driver: Pick<LogDriver, 'search' | 'searchPage'>,
  read: Read,
  query: WordQuery,
  listing: Listing,
  after: Position | undefined,
  wanted: number,
): Promise<Movie[]> {
  const { sort, from, to } = listing
  const point = after && { date: after.date, id: after.id }
  const page = await driver.searchPage?.(query, { sort, from, to, after: point }, wanted)
  if (page) return page
  const few = await driver.search(query, FEW_IN_RANGE + 1)
  if (few.length <= FEW_IN_RANGE) {
    const order = orderOf(listing)
    return few
      .filter((movie) => inRange(listing, movie.screenedDate))
      .filter(
        (movie) => !after || order(movie, { id: after.id, screenedDate: after.date } as Movie) > 0,
      )
      .sort(order)
      .slice(0, wanted)
  }
  const found: Movie[] = []
  let resume = after
  while (found.length < wanted) {
    const chunk = await read(listing, resume, WALK_CHUNK)
    for (const movie of chunk) {
      if (found.length < wanted && answers(movieWords(movie), query)) found.push(movie)
    }
    const last = chunk.at(-1)
    if (chunk.length < WALK_CHUNK || !last) break
    resume = { listing, id: last.id, date: last.screenedDate }
  }
  return found
}

function orderOf(listing: Listing): (a: Movie, b: Movie) => number {
  if (listing.sort === 'added') return byId
  if (listing.sort === 'screenedDate') return byDate
  return (a, b) => byDate(b, a)
}
