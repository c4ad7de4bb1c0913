import type Keyv from 'keyv'
import type { Movie } from '../core/movie'
import { keyvMovie, keyvRecords, keyvReplace, setOrThrow } from './records'
import { byId, MOVIE_KEY_PREFIX, type MovieDriver, movieKey } from './types'

/**
 * Any keyv store that can iterate, through keyv's public API alone: every listing walks the
 * whole namespace and sorts, because each backend iterates in its own order. Correct
 * everywhere, and O(n) per page. Its create-if-absent and compare-and-set hold within one
 * process only: the store offers no atomic step to build them on.
 */
export function createScanDriver(keyv: Keyv): MovieDriver {
  const scope = (keyv.store as object | undefined) ?? keyv
  return {
    remote: true,
    put: (movie) => setOrThrow(keyv, movieKey(movie.id), movie),
    get: (id) => keyvMovie(keyv, id),
    listAfter: async (after, limit) => (await scan(keyv, after)).sort(byId).slice(0, limit),
    replace: keyvReplace(keyv, scope),
    ...keyvRecords(keyv, scope),
  }
}

async function scan(keyv: Keyv, after: string | undefined): Promise<Movie[]> {
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
      const movie = value as Movie
      if (after === undefined || movie.id > after) movies.push(movie)
    }
  } finally {
    keyv.off('error', onError)
  }
  if (failure !== undefined) throw failure
  return movies
}
