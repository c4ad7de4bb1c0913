import { randomUUID } from 'node:crypto'
import {
  type ClosableMovieLog,
  createMovieLog,
  type ImportRow,
  importMovies,
  type MovieLog,
  type MovieLogStore,
} from 'movie-log'
import { afterAll, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import type { StoreBackend } from './_store-suite'

const rowsOf = (movies: unknown[]): ImportRow[] =>
  movies.map((movie, index) => ({ line: index + 2, movie }))

/** `importMovies` on one backend: ids kept, re-runs harmless, refusals reported by line. */
export function describeImportSuite(backend: StoreBackend): void {
  describe(`importMovies: ${backend.name}`, () => {
    const made: ClosableMovieLog[] = []
    afterAll(async () => {
      await Promise.allSettled(made.splice(0).map((log) => log.close()))
      await backend.closeAll()
    })
    const openLog = async (): Promise<MovieLog> => {
      const namespace = `import-${randomUUID()}`
      const log = createMovieLog((await backend.open(namespace)) as MovieLogStore, { namespace })
      made.push(log)
      return log
    }

    it('keeps given ids, skips the same movie again and adds nothing on a second run', async () => {
      const source = createMovieLog()
      const movies = [
        await source.addMovie(aMovie({ title: 'First' })),
        await source.addMovie(aMovie({ title: 'Second' })),
      ]
      const log = await openLog()
      expect(await importMovies(log, rowsOf(movies))).toEqual({ added: 2, skipped: 0, refused: [] })
      expect((await log.listMovies()).movies).toEqual(movies)
      expect(await importMovies(log, rowsOf(movies))).toEqual({ added: 0, skipped: 2, refused: [] })
      expect((await log.listMovies()).movies).toEqual(movies)
    })

    it('refuses a known id with other content, and leaves the stored movie as it was', async () => {
      const log = await openLog()
      const kept = await log.addMovie(aMovie())
      const report = await importMovies(log, rowsOf([{ ...kept, title: 'Changed' }]))
      expect(report.refused).toEqual([
        {
          line: 2,
          id: kept.id,
          status: 'refused',
          issues: [{ path: 'id', message: 'is already in the log with other content' }],
        },
      ])
      expect(await log.getMovie(kept.id)).toEqual(kept)
    })

    it('gives rows without ids ids of their own, the same ones on a second run', async () => {
      const log = await openLog()
      const rows = rowsOf([aMovie({ title: 'A' }), aMovie({ title: 'B' }), aMovie({ title: 'A' })])
      // The third row is the first one again: the same movie, skipped.
      expect(await importMovies(log, rows)).toEqual({ added: 2, skipped: 1, refused: [] })
      const first = (await log.listMovies()).movies
      expect(first.map((movie) => movie.title).sort()).toEqual(['A', 'B'])
      for (const movie of first) expect(movie.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/)
      expect(await importMovies(log, rows)).toEqual({ added: 0, skipped: 3, refused: [] })
      expect((await log.listMovies()).movies).toEqual(first)
    })

    it('reports every refused row with its line and every issue, and stores the rest', async () => {
      const log = await openLog()
      const rows: ImportRow[] = [
        { line: 2, movie: aMovie({ title: 'Good' }) },
        { line: 3, movie: { ...aMovie(), id: 'not-a-uuid', releaseYear: '1995' } },
        { line: 4, movie: aMovie({ title: '', extra: 1 }) },
        { line: 7, issues: [{ path: 'URL', message: 'is empty' }] },
        { line: 8, movie: aMovie({ title: 'Also good' }) },
      ]
      const seen: number[] = []
      const report = await importMovies(log, rows, { onRow: (row) => seen.push(row.line) })
      expect(report.added).toBe(2)
      expect(report.refused.map((row) => [row.line, row.issues?.map((i) => i.path)])).toEqual([
        [3, ['id', 'releaseYear']],
        [4, ['title', 'extra']],
        [7, ['URL']],
      ])
      expect(seen.sort((a, b) => a - b)).toEqual([2, 3, 4, 7, 8])
      expect((await log.listMovies()).movies.map((movie) => movie.title).sort()).toEqual([
        'Also good',
        'Good',
      ])
    })

    it('imports more rows than one batch, from an async source, each once', async () => {
      const log = await openLog()
      async function* many() {
        for (let n = 0; n < 150; n++) yield { line: n + 1, movie: aMovie({ title: `M${n}` }) }
        // The same id twice within one batch: the second sees the first.
        const again = { ...aMovie(), id: '0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' }
        yield { line: 151, movie: again }
        yield { line: 152, movie: again }
      }
      expect(await importMovies(log, many())).toEqual({ added: 151, skipped: 1, refused: [] })
      expect((await log.listMovies()).movies).toHaveLength(151)
    })
  })
}
