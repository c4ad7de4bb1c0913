// Issue 27 item 2: isolation that holds for any names and ids. Random owners (prefixes of one
// another, key separators, braces, globs, spaces, non-ASCII, emoji) and random operations, some
// naming other owners' ids or reusing their Idempotency-Keys, against a model, on every store.

import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import fc from 'fast-check'
import {
  createMovieLogs,
  IdempotencyError,
  type Movie,
  type MovieLogs,
  MovieNotFoundError,
} from 'movie-log'
import { afterAll, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { describeWith, UNDER_CI } from './_services'
import { expectedListing, type Listing, SORTS, walkPages } from './_store-helpers'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()

/** Owners whose names share prefixes or hold what a key layout might use as a separator. */
export const OWNER_POOL = [
  'alice',
  'alice2',
  'alice:',
  'alice%3A',
  'alice:{x}',
  '{alice}',
  'a*',
  '*',
  'al ice',
  'ünï cödé',
  '🎬🍿',
] as const
const KEYS = ['k1', 'k2', 'k3']
const TITLES = ['Heat', 'Ronin', 'Alien']
const DATES = [
  '2023-01-01T00:00:00.000',
  '2024-02-29T12:00:00.000',
  '2024-12-31T23:59:59.999',
  '2025-06-01T08:00:00.000',
]
const RANGES: Listing[] = [
  {},
  { from: '2024' },
  { from: '2024-03', to: '2024-12-31' },
  { to: '2023' },
]
// Few enough for a quick `npm test` (a few seconds a store); CI tries six times as many.
const RUNS = UNDER_CI ? 60 : 10

// An index into the run's owners: a few of the pool, so that their steps meet often.
const owner = fc.nat()
type Step =
  | { kind: 'add'; owner: number; key: string | null; title: number; date: number }
  | { kind: 'get' | 'delete'; owner: number; pick: number }
  | { kind: 'update'; owner: number; pick: number; title: number; date: number | null }
  | { kind: 'list'; owner: number; limit: number; sort: number; range: number }
  | { kind: 'drop'; owner: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      owner,
      key: fc.option(fc.constantFrom(...KEYS)),
      // Two inputs only, so that a key's second use is as often the same input as another.
      title: fc.nat(1),
      date: fc.nat(DATES.length - 1),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('get' as const, 'delete' as const),
      owner,
      pick: fc.nat(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      owner,
      pick: fc.nat(),
      title: fc.nat(TITLES.length - 1),
      date: fc.option(fc.nat(DATES.length - 1)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('list' as const),
      owner,
      limit: fc.integer({ min: 1, max: 4 }),
      sort: fc.nat(SORTS.length - 1),
      range: fc.nat(RANGES.length - 1),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), owner }) },
)

/** What the store should hold: each owner's movies, and its Idempotency-Keys' first adds. */
class Model {
  readonly movies = new Map<string, Map<string, Movie>>()
  readonly keys = new Map<string, Map<string, { input: string; movie: Movie }>>()
  /** Every id any owner was ever given, for steps to name. */
  readonly seen: string[] = []

  of(who: string): Map<string, Movie> {
    const movies = this.movies.get(who) ?? new Map<string, Movie>()
    this.movies.set(who, movies)
    return movies
  }

  keysOf(who: string): Map<string, { input: string; movie: Movie }> {
    const keys = this.keys.get(who) ?? new Map<string, { input: string; movie: Movie }>()
    this.keys.set(who, keys)
    return keys
  }
}

async function run(logs: MovieLogs, model: Model, owners: string[], each: Step): Promise<void> {
  const who = owners[each.owner % owners.length] as string
  const log = logs.of(who)
  const mine = model.of(who)
  switch (each.kind) {
    case 'add': {
      const date = DATES[each.key === null ? each.date : each.title]
      const input = aMovie({ title: TITLES[each.title], screenedDate: date })
      const fingerprint = JSON.stringify(input)
      const used = each.key === null ? undefined : model.keysOf(who).get(each.key)
      const adding = log.addMovie(input, each.key === null ? {} : { idempotencyKey: each.key })
      if (used && used.input !== fingerprint) {
        await expect(adding).rejects.toMatchObject({
          name: IdempotencyError.name,
          code: 'IDEMPOTENCY_KEY_REUSED',
        })
        return
      }
      const added = await adding
      if (used) {
        // The first movie, as it is now (or as it was, once deleted): never another owner's.
        expect(added).toEqual(mine.get(used.movie.id) ?? used.movie)
        return
      }
      expect(model.seen).not.toContain(added.id)
      expect(added).toMatchObject({ title: TITLES[each.title], screenedDate: date })
      mine.set(added.id, added)
      model.seen.push(added.id)
      if (each.key !== null) model.keysOf(who).set(each.key, { input: fingerprint, movie: added })
      return
    }
    case 'get': {
      const id = model.seen[each.pick % model.seen.length]
      if (id === undefined) return
      expect(await log.getMovie(id)).toEqual(mine.get(id))
      return
    }
    case 'delete': {
      const id = model.seen[each.pick % model.seen.length]
      if (id === undefined) return
      expect(await log.deleteMovie(id)).toBe(mine.has(id))
      mine.delete(id)
      return
    }
    case 'update': {
      const id = model.seen[each.pick % model.seen.length]
      if (id === undefined) return
      const changes = {
        title: TITLES[each.title] as string,
        ...(each.date === null ? {} : { screenedDate: DATES[each.date] as string }),
      }
      const current = mine.get(id)
      if (!current) {
        await expect(log.updateMovie(id, changes)).rejects.toBeInstanceOf(MovieNotFoundError)
        return
      }
      const updated = await log.updateMovie(id, changes)
      expect(updated).toEqual({ ...current, ...changes })
      mine.set(id, updated)
      return
    }
    case 'list': {
      const listing = { ...RANGES[each.range], sort: SORTS[each.sort] }
      const expected = expectedListing(mine.values(), listing)
      const page = await log.listMovies({ ...listing, limit: each.limit })
      expect(page.movies).toEqual(expected.slice(0, each.limit))
      expect(await walkPages(log, each.limit, undefined, listing)).toEqual(
        expected.map((movie) => movie.id),
      )
      return
    }
    case 'drop':
      await logs.drop(who)
      model.movies.delete(who)
      model.keys.delete(who)
  }
}

function describeIsolation(name: string, storeUrl: () => string): void {
  describe(`owners kept apart: ${name}`, () => {
    let logs: MovieLogs | undefined
    const open = () => {
      logs ??= createMovieLogs(storeUrl(), { namespace: `test-owners-${randomUUID()}` })
      return logs
    }
    const dropAll = (of: MovieLogs) => Promise.all(OWNER_POOL.map((each) => of.drop(each)))
    afterAll(async () => {
      if (!logs) return
      await dropAll(logs).finally(() => logs?.close())
    })

    it(
      'lists, reads, changes and deletes only the owner’s own movies, whatever ids and keys the steps name',
      async () => {
        const logs = open()
        await fc.assert(
          fc.asyncProperty(
            fc.shuffledSubarray([...OWNER_POOL], { minLength: 2, maxLength: 4 }),
            fc.array(step, { minLength: 15, maxLength: 40 }),
            async (owners, steps) => {
              await dropAll(logs)
              const model = new Model()
              for (const each of steps) {
                await run(logs, model, owners, each)
                for (const who of OWNER_POOL) {
                  const { movies } = await logs.of(who).listMovies()
                  expect(movies, `${who} after ${JSON.stringify(each)}`).toEqual(
                    expectedListing(model.of(who).values()),
                  )
                }
              }
            },
          ),
          { numRuns: RUNS },
        )
      },
      UNDER_CI ? 180_000 : 90_000,
    )
  })
}

describeIsolation('memory', () => 'memory://')
describeIsolation(
  'SQLite',
  () => `sqlite://${join(tempFolder('movie-log-owners-'), 'movies.sqlite')}`,
)
describeWith('REDIS_URL', 'owners kept apart on Redis', () => {
  describeIsolation('Redis', () => process.env.REDIS_URL as string)
})
describeWith('POSTGRES_URL', 'owners kept apart on PostgreSQL', () => {
  describeIsolation('PostgreSQL', () => process.env.POSTGRES_URL as string)
})
