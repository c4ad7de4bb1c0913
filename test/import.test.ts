import { join } from 'node:path'
import { createMovieLog, importMovies, registerStoreOpener } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { driverForKeyv, toKeyv } from '../src/drivers'
import { urlBackend } from './_backends'
import { describeImportSuite } from './_import-suite'
import { aMovie } from './_movies'
import { describeWith } from './_services'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()

describeImportSuite(urlBackend('memory', 'memory://', () => new Map()))
describeImportSuite(
  urlBackend('SQLite', `sqlite://${join(tempFolder('movie-log-import-'), 'movies.sqlite')}`, () => {
    throw new Error('not used')
  }),
)
describeWith('REDIS_URL', 'importMovies on Redis', () => {
  describeImportSuite(urlBackend('Redis', process.env.REDIS_URL as string, 'redis://127.0.0.1:1'))
})
describeWith('POSTGRES_URL', 'importMovies on PostgreSQL', () => {
  describeImportSuite(
    urlBackend('PostgreSQL', process.env.POSTGRES_URL as string, 'postgres://127.0.0.1:1/x'),
  )
})

describe('importMovies, ids', () => {
  it('accepts any printable id in a log with its own generateId, and makes new ones', async () => {
    let n = 0
    const log = createMovieLog(new Map(), { generateId: () => `own-${++n}` })
    const report = await importMovies(log, [
      { line: 1, movie: { ...aMovie(), id: 'legacy:42' } },
      { line: 2, movie: aMovie() },
      { line: 3, movie: { ...aMovie(), id: 'has space' } },
    ])
    expect(report.added).toBe(2)
    expect(report.refused.map((row) => row.line)).toEqual([3])
    expect((await log.listMovies()).movies.map((movie) => movie.id)).toEqual(['legacy:42', 'own-1'])
  })

  it('refuses an object that is not a log made by createMovieLog', async () => {
    const fake = { ...createMovieLog() }
    await expect(importMovies(fake, [])).rejects.toThrow(/made by createMovieLog/)
  })

  // Issue 55: counting the imported rows' terms in swallowed every error, a bug's too.
  it("fails with a bug in counting the rows' terms in, and leaves a store failure to the reads", async () => {
    const counting = (scheme: string, failure: Error) => {
      registerStoreOpener({
        schemes: [scheme],
        remote: false,
        open: async () => {
          const memory = driverForKeyv(toKeyv(new Map(), 'movie-log'))
          const countTerms = async () => {
            throw failure
          }
          return { ...memory, log: (owner) => ({ ...memory.log(owner), countTerms }) }
        },
      })
      return createMovieLog(`${scheme}://`)
    }
    const bug = new TypeError('terms is not iterable')
    await expect(
      importMovies(counting('test-import-bug', bug), [{ line: 1, movie: aMovie() }]),
    ).rejects.toBe(bug)
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
    })
    const report = await importMovies(counting('test-import-down', down), [
      { line: 1, movie: aMovie() },
    ])
    expect(report.added).toBe(1)
  })
})
