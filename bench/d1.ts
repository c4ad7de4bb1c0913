/**
 * A local D1 for a bench (Miniflare's workerd, in memory), reached as `createMovieLog('d1-bench://')`
 * reaches it, and filled with seeded movies 500 rows a statement, exactly as the driver stores
 * them (its triggers count their terms): one add per movie through workerd would take an hour
 * at 100k. Each statement crosses from Node to workerd, as a Worker's call crosses to D1.
 */

import { SOLE_OWNER } from '../src/core/driver'
import { createUuidV7Generator } from '../src/core/id'
import type { Movie } from '../src/core/movie'
import { termsOf } from '../src/core/tallies'
import { registerStoreOpener } from '../src/create'
import { classifyD1Failure, type D1DatabaseLike, openD1Driver } from '../src/drivers/d1/driver'
import { movieText } from '../src/drivers/sql/driver'
import { d1Miniflare } from '../test/_worker'

export const D1_BENCH_URL = 'd1-bench://'

export function benchD1() {
  const miniflare = d1Miniflare()
  const binding = (): Promise<D1DatabaseLike> => miniflare.getD1Database('DB')
  registerStoreOpener({
    schemes: ['d1-bench'],
    remote: true,
    open: async (_url, options) => openD1Driver(await binding(), options),
    classifyFailure: classifyD1Failure,
  })
  const generateId = createUuidV7Generator()
  return {
    /** Movies `from` to `to` (numbered), made by `make`, for the one owner of `namespace`. */
    seed: async (
      namespace: string,
      from: number,
      to: number,
      make: (n: number) => Omit<Movie, 'id'>,
    ) => {
      await (await openD1Driver(await binding(), { namespace })).close()
      const db = await binding()
      const insert = db.prepare(
        `INSERT INTO movie_log_movies (namespace, owner, id, screened, movie, terms) SELECT ?1, ?2, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') FROM json_each(?3)`,
      )
      for (let first = from; first < to; first += 500) {
        const rows = Array.from({ length: Math.min(500, to - first) }, (_, k) => {
          const movie = { id: generateId(), ...make(first + k) } as Movie
          return [movie.id, movie.screenedDate, movieText(movie), JSON.stringify(termsOf(movie))]
        })
        await insert.bind(namespace, SOLE_OWNER, JSON.stringify(rows)).all()
      }
    },
    close: () => miniflare.dispose(),
  }
}
