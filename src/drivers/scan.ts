import type Keyv from 'keyv'
import type { Movie } from '../core/movie'
import { keyvMovie, keyvMovieWrites, keyvRecords } from './records'
import { type BaseDriver, byDate, byId, isAfter, MOVIE_KEY_PREFIX } from './types'

/**
 * Any keyv store that can iterate, through keyv's public API alone: every listing walks the
 * whole namespace and sorts, because each backend iterates in its own order. Correct
 * everywhere, and O(n) per page, in either order. Its create-if-absent and compare-and-set hold within one
 * process only: the store offers no atomic step to build them on.
 */
export function createScanDriver(keyv: Keyv): BaseDriver {
  const scope = (keyv.store as object | undefined) ?? keyv
  return {
    remote: true,
    get: (id) => keyvMovie(keyv, id),
    listAfter: async (after, limit) =>
      (await scan(keyv))
        .filter((movie) => after === undefined || movie.id > after)
        .sort(byId)
        .slice(0, limit),
    listByDate: async (query, limit) => {
      const movies = (await scan(keyv)).filter(
        (movie) =>
          movie.screenedDate >= query.from &&
          movie.screenedDate <= query.to &&
          isAfter(query, movie),
      )
      movies.sort(byDate)
      if (query.descending) movies.reverse()
      return movies.slice(0, limit)
    },
    ...keyvMovieWrites(keyv, scope),
    ...keyvRecords(keyv, scope),
  }
}

async function scan(keyv: Keyv): Promise<Movie[]> {
  const movies: Movie[] = []
  // @keyv/postgres ends its iterator early on a failed query and only emits the error.
  let failure: unknown
  const onError = (error: unknown) => {
    failure ??= error
  }
  keyv.on('error', onError)
  try {
    const iterate = keyv.iterator as NonNullable<Keyv['iterator']>
    // keyv 5 takes the namespace; keyv 6 knows it and takes nothing.
    for await (const [key, value] of iterate(keyv.namespace)) {
      if (typeof key !== 'string' || !key.startsWith(MOVIE_KEY_PREFIX)) continue
      movies.push(value as Movie)
    }
  } finally {
    keyv.off('error', onError)
  }
  if (failure !== undefined) throw failure
  return movies
}
