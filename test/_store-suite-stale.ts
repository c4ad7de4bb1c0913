import { randomUUID } from 'node:crypto'
import { type Movie, PreconditionFailedError, versionOf } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { rejection } from './_store-helpers'
import type { StoreSuiteContext } from './_store-suite'

const VERSION = /^[0-9a-f]{16}$/

function expectPreconditionFailed(error: unknown, what: string): void {
  expect(error, what).toBeInstanceOf(PreconditionFailedError)
  expect((error as PreconditionFailedError).code, what).toBe('PRECONDITION_FAILED')
  expect(PreconditionFailedError.is(error), what).toBe(true)
}

/** Version tags and `ifMatch`: stale tags, `'*'`, and concurrent changes with one tag. */
export function describeStaleSuite({ openLog }: StoreSuiteContext): void {
  describe('version tags and ifMatch', () => {
    it('tags a movie by its content: the same in every log, another after an edit, back after undoing it', async () => {
      const namespace = `test-${randomUUID()}`
      const [first, second] = [await openLog(namespace), await openLog(namespace)]
      const movie = await first.addMovie(aMovie())
      const tag = versionOf(movie)
      expect(tag).toMatch(VERSION)
      expect(versionOf({ ...movie })).toBe(tag)
      expect(versionOf((await second.getMovie(movie.id)) as Movie)).toBe(tag)
      expect(versionOf((await second.listMovies()).movies[0] as Movie)).toBe(tag)

      const edited = await second.updateMovie(movie.id, { notes: 'Changed.' })
      expect(versionOf(edited)).toMatch(VERSION)
      expect(versionOf(edited)).not.toBe(tag)
      expect(versionOf((await first.getMovie(movie.id)) as Movie)).toBe(versionOf(edited))
      const undone = await first.updateMovie(movie.id, { notes: movie.notes })
      expect(versionOf(undone)).toBe(tag)
      // Every field counts, the id too.
      for (const [field, value] of Object.entries({
        id: randomUUID(),
        title: 'Heat ',
        screenedDate: '2024-05-01T20:30:00.001',
        releaseYear: 1996,
        imdbLink: 'https://www.imdb.com/title/tt0113278/',
      })) {
        expect(versionOf({ ...movie, [field]: value }), field).not.toBe(tag)
      }
    })

    it('refuses a stale tag, to edit and to delete, and changes nothing', async () => {
      const log = await openLog()
      const movie = await log.addMovie(aMovie())
      const stale = versionOf(movie)
      const edited = await log.updateMovie(movie.id, { title: 'First edit' }, { ifMatch: stale })
      expect(edited.title).toBe('First edit')
      const refusedEdit = await rejection(
        log.updateMovie(movie.id, { title: 'Lost update' }, { ifMatch: stale }),
      )
      expectPreconditionFailed(refusedEdit, 'edit')
      const refusedDelete = await rejection(log.deleteMovie(movie.id, { ifMatch: stale }))
      expectPreconditionFailed(refusedDelete, 'delete')
      // A tag that was never one, and an invalid edit with a stale tag: still refused, unchanged.
      expectPreconditionFailed(
        await rejection(log.updateMovie(movie.id, {}, { ifMatch: '0123456789abcdef' })),
        'made-up tag',
      )
      expect(await log.getMovie(movie.id)).toEqual(edited)
      expect((await log.listMovies()).movies).toEqual([edited])

      const current = versionOf(edited)
      const again = await log.updateMovie(movie.id, { notes: 'x' }, { ifMatch: current })
      expect(again).toEqual({ ...edited, notes: 'x' })
      expect(await log.deleteMovie(movie.id, { ifMatch: versionOf(again) })).toBe(true)
      expect(await log.getMovie(movie.id)).toBeUndefined()
    })

    it("takes '*' for any current movie, and refuses any ifMatch on a missing one", async () => {
      const log = await openLog()
      const movie = await log.addMovie(aMovie())
      const edited = await log.updateMovie(movie.id, { title: 'Starred' }, { ifMatch: '*' })
      expect(edited.title).toBe('Starred')
      const missing = randomUUID()
      for (const ifMatch of ['*', versionOf(movie)]) {
        expectPreconditionFailed(
          await rejection(log.updateMovie(missing, { title: 'x' }, { ifMatch })),
          `edit ${ifMatch}`,
        )
        expectPreconditionFailed(
          await rejection(log.deleteMovie(missing, { ifMatch })),
          `delete ${ifMatch}`,
        )
      }
      expect(await log.deleteMovie(movie.id, { ifMatch: '*' })).toBe(true)
      expectPreconditionFailed(
        await rejection(log.deleteMovie(movie.id, { ifMatch: '*' })),
        'delete * again',
      )
      expectPreconditionFailed(
        await rejection(log.updateMovie(movie.id, {}, { ifMatch: versionOf(edited) })),
        'edit a deleted movie with its last tag',
      )
      expect((await log.listMovies()).movies).toEqual([])
      expect(await log.getMovie(movie.id)).toBeUndefined()
    })

    it('lets exactly one of 20 concurrent edits with one tag win, over two logs', async () => {
      const namespace = `test-${randomUUID()}`
      const logs = [await openLog(namespace), await openLog(namespace)]
      const movie = await logs[0]!.addMovie(aMovie())
      const ifMatch = versionOf(movie)
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, n) =>
          logs[n % 2]!.updateMovie(movie.id, { title: `Edit ${n}` }, { ifMatch }),
        ),
      )
      const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))
      expect(won).toHaveLength(1)
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expectPreconditionFailed(outcome.reason, 'loser')
      }
      expect(await logs[1]!.getMovie(movie.id)).toEqual(won[0])
      expect((await logs[0]!.listMovies()).movies).toEqual([won[0]])
    })

    it('lets one of concurrent deletes and edits with one tag win, over two logs', async () => {
      const namespace = `test-${randomUUID()}`
      const logs = [await openLog(namespace), await openLog(namespace)]
      const movie = await logs[0]!.addMovie(aMovie())
      const ifMatch = versionOf(movie)
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, n) =>
          n % 4 < 2
            ? logs[n % 2]!.deleteMovie(movie.id, { ifMatch })
            : logs[n % 2]!.updateMovie(movie.id, { title: `Edit ${n}` }, { ifMatch }),
        ),
      )
      const won = outcomes.filter((o) => o.status === 'fulfilled')
      expect(won).toHaveLength(1)
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expectPreconditionFailed(outcome.reason, 'loser')
      }
      const winner = (won[0] as PromiseFulfilledResult<Movie | boolean>).value
      const listed = (await logs[1]!.listMovies()).movies
      expect(listed).toEqual(winner === true ? [] : [winner])
      expect(await logs[0]!.getMovie(movie.id)).toEqual(winner === true ? undefined : winner)
    })
  })
}
