import fc from 'fast-check'
import type { Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { EDGE_DATES } from './_dated'
import { aMovie } from './_movies'
import { UNDER_CI } from './_services'
import { expectedListing, type Listing, SORTS, walkPages } from './_store-helpers'
import type { StoreSuiteContext } from './_store-suite'

// Kept small locally so `npm test` stays quick; CI tries more.
const RUNS = UNDER_CI ? 25 : 6
const RANGES: Listing[] = [
  {},
  { from: '2024' },
  { from: '2024-03', to: '2024-06-30' },
  { to: '2023' },
]

// Dates from a small pool (ties, period edges) or anywhere from 2022 to 2025.
const screenedDate = fc.oneof(
  fc.constantFrom(...EDGE_DATES),
  fc
    .date({
      min: new Date('2022-01-01T00:00:00Z'),
      max: new Date('2025-12-31T23:59:59Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString().slice(0, 23)),
)

type Command =
  | { kind: 'add'; screenedDate: string }
  | { kind: 'edit'; pick: number; screenedDate?: string; title?: string }
  | { kind: 'delete'; pick: number }

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), screenedDate }) },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        kind: fc.constant('edit' as const),
        pick: fc.nat(),
        screenedDate,
        title: fc.constantFrom('Edited', 'Heat', 'Ronin'),
      },
      { requiredKeys: ['kind', 'pick'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
)

/** The property: random adds, edits and deletes, then every listing equals the model's. */
export function describeModelSuite({ openLog }: StoreSuiteContext): void {
  describe('against a model', () => {
    it(
      'lists what a simple model lists, for every sort and range, walked by pages of any size',
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(command, { minLength: 1, maxLength: 30 }),
            fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }),
            async (commands, pageSizes) => {
              const log = await openLog()
              const model = new Map<string, Movie>()
              const pickFrom = (pick: number) => [...model.keys()].sort()[pick % model.size]
              for (const step of commands) {
                if (step.kind === 'add') {
                  const added = await log.addMovie(aMovie({ screenedDate: step.screenedDate }))
                  model.set(added.id, added)
                  continue
                }
                const id = pickFrom(step.pick)
                if (id === undefined) continue
                if (step.kind === 'delete') {
                  expect(await log.deleteMovie(id)).toBe(true)
                  model.delete(id)
                } else {
                  const { pick: _pick, kind: _kind, ...changes } = step
                  const edited = await log.updateMovie(id, changes)
                  expect(edited).toEqual({ ...model.get(id), ...changes })
                  model.set(id, edited)
                }
              }
              let turn = 0
              const nextSize = () => pageSizes[turn++ % pageSizes.length] as number
              for (const sort of SORTS) {
                for (const range of RANGES) {
                  const listing = { ...range, sort }
                  const expected = expectedListing(model.values(), listing)
                  expect((await log.listMovies(listing)).movies).toEqual(expected)
                  const walked = await walkPages(log, nextSize, undefined, listing)
                  expect(walked).toEqual(expected.map((movie) => movie.id))
                }
              }
            },
          ),
          { numRuns: RUNS },
        )
      },
      UNDER_CI ? 120_000 : 60_000,
    )
  })
}
