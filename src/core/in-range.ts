import { byId, type LogDriver } from './driver'
import type { Movie } from './movie'

/** Most movies a range is read whole from the date index before the order added is walked. */
export const FEW_IN_RANGE = 1000
const WALK_CHUNK = 500

type Range = { from: string; to: string }

/**
 * The order added within a date range, for a driver with both indexes: a range holding few
 * movies is read from the date index and ordered by id; one holding many is walked in the
 * order added, where they are dense, keeping those within. Either way a page reads at most
 * about FEW_IN_RANGE movies, or `limit` divided by the share of the log in range.
 */
export async function listAddedInRange(
  driver: Pick<LogDriver, 'listAfter' | 'listByDate'>,
  after: string | undefined,
  range: Range,
  limit: number,
): Promise<Movie[]> {
  const few = await driver.listByDate({ descending: false, ...range }, FEW_IN_RANGE + 1)
  if (few.length <= FEW_IN_RANGE) {
    const later = few.filter((movie) => after === undefined || movie.id > after)
    return later.sort(byId).slice(0, limit)
  }
  return walkAdded(driver, after, range, limit)
}

/** The order added, in chunks, keeping the movies within the range. */
export async function walkAdded(
  driver: Pick<LogDriver, 'listAfter'>,
  after: string | undefined,
  range: Range,
  limit: number,
): Promise<Movie[]> {
  const movies: Movie[] = []
  let position = after
  while (movies.length < limit) {
    const chunk = await driver.listAfter(position, WALK_CHUNK)
    for (const movie of chunk) {
      const within = movie.screenedDate >= range.from && movie.screenedDate <= range.to
      if (within && movies.length < limit) movies.push(movie)
    }
    if (chunk.length < WALK_CHUNK) break
    position = (chunk.at(-1) as Movie).id
  }
  return movies
}
