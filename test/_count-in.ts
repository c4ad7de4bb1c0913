// What the terms-on-read suites (SQLite, Redis) share: a store whose counting in fails, and rows
// to import into it.
import type { MovieLog } from 'movie-log'
import { expect } from 'vitest'
import type { StoreDriver } from '../src/core/driver'
import { aMovie } from './_movies'

/** `driver`, but each log's `countTerms` (an import's counting in after a batch) fails as the store would. */
export function failingCountIn(driver: StoreDriver): StoreDriver {
  return {
    ...driver,
    log: (owner) => ({
      ...driver.log(owner),
      // The store failing (an errno every driver reads as one), not a bug: that fails the import.
      countTerms: () =>
        Promise.reject(Object.assign(new Error('counting in failed'), { code: 'ECONNRESET' })),
    }),
  }
}

/** Three import rows: Heat, Ran and Alien. */
export const threeRows = () =>
  ['Heat', 'Ran', 'Alien'].map((title, n) => ({ line: n + 1, movie: aMovie({ title }) }))

/** 40 adds by `writer` at once, each counted and found by `reader`'s next count and search. */
export async function expectOthersAddsCountedIn(writer: MovieLog, reader: MovieLog) {
  expect((await reader.stats()).total).toBe(0)
  const added = await Promise.all(
    Array.from({ length: 40 }, (_, n) => writer.addMovie(aMovie({ title: `Heat ${n}` }))),
  )
  expect((await reader.stats()).total).toBe(40)
  const found = await reader.listMovies({ q: 'heat', limit: 100 })
  expect(found.movies.map((m) => m.id).sort()).toEqual(added.map((m) => m.id).sort())
  const page = await reader.listMovies({ q: 'heat', sort: 'screenedDate', limit: 100 })
  expect(page.movies).toHaveLength(40)
}
