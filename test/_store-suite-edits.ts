import { randomUUID } from 'node:crypto'
import { type Movie, MovieNotFoundError, MovieValidationError, versionOf } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { aMovie, MOVIE_FIELDS, untyped } from './_movies'
import { addMany, rejection, walkPages } from './_store-helpers'
import type { StoreSuiteContext } from './_store-suite'
import { describeStaleSuite } from './_store-suite-stale'

const LINK = 'https://www.imdb.com/title/tt0110912/'

/** Corrections: edits and deletes (CONTRACT.md "Corrections: edit and delete"). */
export function describeEditSuite(context: StoreSuiteContext): void {
  const { openLog } = context

  describe('edits and deletes', () => {
    it('edits some fields, keeping the others, the id and the place in insertion order', async () => {
      const log = await openLog()
      const added = await addMany(log, 5)
      const target = added[2] as Movie
      const edited = await log.updateMovie(target.id, { title: '  Heat (1995)  ', notes: '' })
      expect(edited).toEqual({ ...target, title: 'Heat (1995)', notes: '' })
      expect(Object.keys(edited)).toEqual(MOVIE_FIELDS)
      expect(await log.getMovie(target.id)).toEqual(edited)
      const expected = added.map((movie) => (movie.id === target.id ? edited : movie))
      expect((await log.listMovies()).movies).toEqual(expected)
      expect(await walkPages(log, 2)).toEqual(expected.map((movie) => movie.id))

      const redated = await log.updateMovie(target.id, {
        screenedDate: '2020-01-02T03:04:05.006',
        releaseYear: 2020,
      })
      expect(redated).toEqual({
        ...edited,
        screenedDate: '2020-01-02T03:04:05.006',
        releaseYear: 2020,
      })
      expect((await log.listMovies()).movies.map((movie) => movie.id)).toEqual(
        added.map((movie) => movie.id),
      )
    })

    it('takes catalogLink for imdbLink, and {} changes nothing', async () => {
      const log = await openLog()
      const movie = await log.addMovie(aMovie())
      const linked = await log.updateMovie(movie.id, { catalogLink: LINK })
      expect(linked).toEqual({ ...movie, imdbLink: LINK })
      expect(Object.keys(linked)).toEqual(MOVIE_FIELDS)
      const same = await log.updateMovie(movie.id, {})
      expect(same).toEqual(linked)
      expect(versionOf(same)).toBe(versionOf(linked))
      expect(await log.getMovie(movie.id)).toEqual(linked)
      const both = await rejection(log.updateMovie(movie.id, { catalogLink: LINK, imdbLink: LINK }))
      expect(both).toBeUndefined()
    })

    it('refuses id, unknown fields, null and broken rules, naming each, and changes nothing', async () => {
      const log = await openLog()
      const movie = await log.addMovie(aMovie())
      const cases: [Record<string, unknown>, string[]][] = [
        [{ id: randomUUID() }, ['id']],
        [{ id: movie.id }, ['id']],
        [{ colour: 'red', title: 'Fine' }, ['colour']],
        [JSON.parse('{"__proto__":{"polluted":true}}'), ['__proto__']],
        [{ constructor: 'x' }, ['constructor']],
        [{ notes: null }, ['notes']],
        [{ title: null, releaseYear: null }, ['title', 'releaseYear']],
        [
          { title: '', releaseYear: '1995', screenedDate: '2024-05-01T20:30:00.000Z' },
          ['title', 'releaseYear', 'screenedDate'],
        ],
        [
          { title: 'a\u0000b', notes: '\u202egnp.exe', imdbLink: 'https://user:pw@imdb.com/' },
          ['title', 'notes', 'imdbLink'],
        ],
        [{ imdbLink: 'https://evil.example/' }, ['imdbLink']],
        [{ catalogLink: LINK, imdbLink: 'https://www.imdb.com/title/tt0113277/' }, []],
      ]
      for (const [changes, paths] of cases) {
        const error = await rejection(log.updateMovie(movie.id, untyped(changes)))
        expect(error, JSON.stringify(changes)).toBeInstanceOf(MovieValidationError)
        const named = (error as MovieValidationError).issues.map((issue) => issue.path)
        for (const path of paths) expect(named, JSON.stringify(changes)).toContain(path)
        if (paths.length === 0) expect(named.length).toBeGreaterThan(0)
      }
      // The whole record: every broken rule at once.
      const all = (await rejection(
        log.updateMovie(movie.id, untyped({ title: '', releaseYear: 1.5, notes: 3 })),
      )) as MovieValidationError
      expect(all.issues.map((issue) => issue.path).sort()).toEqual([
        'notes',
        'releaseYear',
        'title',
      ])
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      expect(await log.getMovie(movie.id)).toEqual(movie)
      expect((await log.listMovies()).movies).toEqual([movie])
    })

    it('says not found for an unknown id: an error to edit, false to delete', async () => {
      const log = await openLog()
      const movie = await log.addMovie(aMovie())
      const missing = await rejection(log.updateMovie(randomUUID(), { title: 'Nobody' }))
      expect(missing).toBeInstanceOf(MovieNotFoundError)
      expect((missing as MovieNotFoundError).code).toBe('MOVIE_NOT_FOUND')
      expect(MovieNotFoundError.is(missing)).toBe(true)
      expect(await log.deleteMovie(randomUUID())).toBe(false)
      expect((await log.listMovies()).movies).toEqual([movie])
    })

    it('deletes a movie from get, the list and every page; a second delete is false', async () => {
      const log = await openLog()
      const added = await addMany(log, 7)
      const [gone, alsoGone] = [added[1] as Movie, added[4] as Movie]
      expect(await log.deleteMovie(gone.id)).toBe(true)
      expect(await log.deleteMovie(alsoGone.id)).toBe(true)
      const kept = added.filter((movie) => movie !== gone && movie !== alsoGone)
      expect(await log.getMovie(gone.id)).toBeUndefined()
      expect((await log.listMovies()).movies).toEqual(kept)
      for (const limit of [1, 2, 3]) {
        expect(await walkPages(log, limit)).toEqual(kept.map((movie) => movie.id))
      }
      expect(await log.deleteMovie(gone.id)).toBe(false)
      expect(await rejection(log.updateMovie(gone.id, { title: 'Back?' }))).toBeInstanceOf(
        MovieNotFoundError,
      )
      expect((await log.listMovies()).movies).toEqual(kept)
      // A movie added after a delete goes to the end, as any add.
      const later = await log.addMovie(aMovie({ title: 'Later' }))
      expect((await log.listMovies()).movies).toEqual([...kept, later])
    })

    it('shows every log on the store an edit or a delete at once, read before or not', async () => {
      const namespace = `test-${randomUUID()}`
      const [first, second] = [await openLog(namespace), await openLog(namespace)]
      const [movie, other] = await addMany(first, 2)
      // Both logs have read (and may hold) the movie, as a listing and on its own.
      expect(await second.getMovie(movie!.id)).toEqual(movie)
      expect((await second.listMovies({ limit: 5 })).movies).toEqual([movie, other])
      const edited = await first.updateMovie(movie!.id, { title: 'Edited by the first' })
      expect(await second.getMovie(movie!.id)).toEqual(edited)
      expect((await second.listMovies()).movies).toEqual([edited, other])
      expect((await second.listMovies({ limit: 1 })).movies).toEqual([edited])
      const again = await second.updateMovie(movie!.id, { notes: 'and by the second' })
      expect(await first.getMovie(movie!.id)).toEqual(again)
      expect(await second.deleteMovie(movie!.id)).toBe(true)
      expect(await first.getMovie(movie!.id)).toBeUndefined()
      expect((await first.listMovies()).movies).toEqual([other])
      expect((await first.listMovies({ limit: 1 })).movies).toEqual([other])
      expect(await first.deleteMovie(movie!.id)).toBe(false)
    })

    it('gives each movie that stays exactly once in a walk during edits and deletes', async () => {
      const log = await openLog()
      const added = await addMany(log, 40)
      const deleted = new Set<string>()
      const seen = await walkPages(log, 3, async (ids) => {
        // Delete the last one seen (the cursor's) and one not yet seen; edit another.
        const ahead = added.filter((m) => !ids.includes(m.id) && !deleted.has(m.id))
        for (const id of [ids.at(-1), ahead[1]?.id]) {
          if (id && !deleted.has(id) && (await log.deleteMovie(id))) deleted.add(id)
        }
        if (ahead[2]) await log.updateMovie(ahead[2].id, { title: `Edited after ${ids.length}` })
      })
      expect(new Set(seen).size).toBe(seen.length)
      const stayed = added.filter((movie) => !deleted.has(movie.id)).map((movie) => movie.id)
      expect(seen.filter((id) => !deleted.has(id))).toEqual(stayed)
      expect(deleted.size).toBeGreaterThan(10)
    })

    it('brings back no movie when an add is retried after its movie was edited or deleted', async () => {
      const log = await openLog()
      const input = aMovie({ title: 'Retried' })
      const movie = await log.addMovie(input, { idempotencyKey: 'retried-add' })
      const edited = await log.updateMovie(movie.id, { title: 'Corrected' })
      // The retry is answered with the movie as it is now: the edit stays.
      expect(await log.addMovie(input, { idempotencyKey: 'retried-add' })).toEqual(edited)
      expect((await log.listMovies()).movies).toEqual([edited])
      expect(await log.getMovie(movie.id)).toEqual(edited)

      expect(await log.deleteMovie(movie.id)).toBe(true)
      // Answered as the first add was (same id), and stored again nowhere.
      const afterDelete = await log.addMovie(input, { idempotencyKey: 'retried-add' })
      expect(afterDelete.id).toBe(movie.id)
      expect(await log.getMovie(movie.id)).toBeUndefined()
      expect((await log.listMovies()).movies).toEqual([])
      expect((await log.listMovies({ sort: '-screenedDate' })).movies).toEqual([])
    })
  })

  describeStaleSuite(context)
}
