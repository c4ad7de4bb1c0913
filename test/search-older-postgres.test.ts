import { createMovieLog, type Movie } from 'movie-log'
import pg from 'pg'
import { expect, it } from 'vitest'
import { createPrivatePostgres } from './_postgres'
import { describeWith } from './_services'
import { addCorpus, expectedStats } from './_store-suite-search'

/**
 * Runs `check` on a database holding the corpus, altered by `older` (SQL) as an older version
 * left it, its schema mark another version's, then drops it.
 */
async function onOlder(
  name: string,
  older: string,
  check: (url: string, added: Movie[]) => Promise<void>,
) {
  const database = await createPrivatePostgres(name)
  try {
    const log = createMovieLog(database.url)
    const added = await addCorpus(log)
    await log.close()
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    await client.query(older)
    await client.query(`COMMENT ON TABLE movie_log_movies IS 'movie-log schema older'`)
    await client.end()
    await check(database.url, added)
  } finally {
    await database.drop()
  }
}

// A PostgreSQL database made before the yearly rollup (issue 39): its schema mark differs, so
// the next opener makes the table and fills it from the month counters, once.
describeWith('POSTGRES_URL', 'statistics on a PostgreSQL database made before the rollup', () => {
  it('rolls up its counters on open, then keeps them with every write', async () => {
    // As the version before left it: no rollup table.
    await onOlder('rollup', 'DROP TABLE movie_log_rollup', async (url, added) => {
      const later = createMovieLog(url)
      expect(await later.stats()).toEqual(expectedStats(added))
      expect(await later.stats({ from: '2024', to: '2024' })).toEqual(
        expectedStats(added, '2024-01', '2024-12'),
      )
      await later.deleteMovie(added[0]!.id)
      expect(await later.stats()).toEqual(expectedStats(added.slice(1)))
      await later.close()
    })
  })

  it('gives the words an older movie-log wrote their screening on open, then keeps it', async () => {
    // As the version before search pages left it: words without a screening.
    const older = 'ALTER TABLE movie_log_words DROP COLUMN screened'
    await onOlder('screened', older, async (url, added) => {
      const later = createMovieLog(url)
      const heats = async () =>
        (await later.listMovies({ q: 'heat', sort: '-screenedDate', limit: 3 })).movies
      const latest = (movies: Movie[]) =>
        movies
          .filter((m) => /^heat/i.test(m.title))
          .sort((a, b) => (a.screenedDate < b.screenedDate ? 1 : -1))
          .slice(0, 3)
      expect(await heats()).toEqual(latest(added))
      const moved = await later.updateMovie(added[4]!.id, {
        screenedDate: '2026-01-01T00:00:00.000',
      })
      expect(await heats()).toEqual(latest([...added.filter((m) => m.id !== moved.id), moved]))
      await later.close()
    })
  })
})
