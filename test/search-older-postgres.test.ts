import { createMovieLog } from 'movie-log'
import pg from 'pg'
import { expect, it } from 'vitest'
import { createPrivatePostgres } from './_postgres'
import { describeWith } from './_services'
import { addCorpus, expectedStats } from './_store-suite-search'

// A PostgreSQL database made before the yearly rollup (issue 39): its schema mark differs, so
// the next opener makes the table and fills it from the month counters, once.
describeWith('POSTGRES_URL', 'statistics on a PostgreSQL database made before the rollup', () => {
  it('rolls up its counters on open, then keeps them with every write', async () => {
    const database = await createPrivatePostgres('rollup')
    try {
      const log = createMovieLog(database.url)
      const added = await addCorpus(log)
      await log.close()
      // As the version before left it: no rollup table, another schema mark.
      const client = new pg.Client({ connectionString: database.url })
      await client.connect()
      await client.query('DROP TABLE movie_log_rollup')
      await client.query(`COMMENT ON TABLE movie_log_movies IS 'movie-log schema older'`)
      await client.end()

      const later = createMovieLog(database.url)
      expect(await later.stats()).toEqual(expectedStats(added))
      expect(await later.stats({ from: '2024', to: '2024' })).toEqual(
        expectedStats(added, '2024-01', '2024-12'),
      )
      await later.deleteMovie(added[0]!.id)
      expect(await later.stats()).toEqual(expectedStats(added.slice(1)))
      await later.close()
    } finally {
      await database.drop()
    }
  })
})
