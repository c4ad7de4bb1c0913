import type Keyv from 'keyv'
import type { Movie } from '../movie'
import { byId, MOVIE_KEY_PREFIX, type MovieIndex, movieKey } from './types'

/**
 * Any keyv store that can iterate: every listing walks the whole namespace and sorts, because
 * each backend iterates in its own order. Correct everywhere, and O(n) per page.
 */
export function createScanIndex(keyv: Keyv): MovieIndex {
  return {
    put: async (movie) => {
      await keyv.set(movieKey(movie.id), movie)
    },
    listAfter: async (after, limit) => (await scan(keyv, after)).sort(byId).slice(0, limit),
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
