import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import KeyvSqlite from '@keyv/sqlite'
import {
  createMovieLog,
  LogClosedError,
  registerStoreOpener,
  UnsupportedStoreError,
} from 'movie-log'
import { sqlite } from 'movie-log/sqlite'
import { describe, expect, it, vi } from 'vitest'
import { aMovie } from './_movies'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()

describe('a store named by URL', () => {
  it('memory:// is a log in memory, and a closed log refuses further calls', async () => {
    const log = createMovieLog('memory://')
    const movie = await log.addMovie(aMovie())
    expect((await log.listMovies()).movies).toEqual([movie])
    await log.close()
    await expect(log.listMovies()).rejects.toThrow(LogClosedError)
  })

  it('refuses an unknown scheme, naming the URL without its password', () => {
    expect(() => createMovieLog('mongodb://me:secret@host/db')).toThrow(
      /unknown store URL 'mongodb:\/\/me:\*\*\*@host\/db'/,
    )
  })

  it('opens a scheme a registered opener plugs in, once, on first use', async () => {
    const opened: string[] = []
    registerStoreOpener({
      schemes: ['test-plugged'],
      remote: false,
      open: async (url, options) => {
        opened.push(`${url} ${options.namespace}`)
        const { driverForKeyv, toKeyv } = await import('../src/drivers')
        return driverForKeyv(toKeyv(new Map(), options.namespace))
      },
    })
    const log = createMovieLog('test-plugged://here', { namespace: 'plugged' })
    expect(opened).toEqual([])
    const movie = await log.addMovie(aMovie())
    expect(await log.getMovie(movie.id)).toEqual(movie)
    expect(opened).toEqual(['test-plugged://here plugged'])
  })

  it('refuses a parameter its driver does not take, naming it, before anything is opened', async () => {
    // A Redis on a port nothing listens on: the URL is refused before any connection.
    const redis = createMovieLog('redis://:s3cret@127.0.0.1:9/0?wait=0&namespace=mine')
    const redisError = await redis.listMovies().catch((error: unknown) => error)
    expect(redisError).toBeInstanceOf(UnsupportedStoreError)
    expect((redisError as Error).message).toMatch(/unknown parameter 'namespace'.*only wait=N/)
    expect((redisError as Error).message).not.toContain('s3cret')
    const twice = createMovieLog('redis://127.0.0.1:9/0?wait=0&wait=1')
    await expect(twice.listMovies()).rejects.toThrow(/names wait more than once/)
    // A `?` in a password is never read as the start of parameters, nor any of it named.
    const unencoded = createMovieLog('redis://me:s3c?ret1@127.0.0.1:9/0')
    const unencodedError = await unencoded.listMovies().catch((error: unknown) => error)
    expect((unencodedError as Error).message).not.toMatch(/s3c|ret1/)

    const file = join(tempFolder('movie-log-url-'), 'movies.sqlite')
    const sqliteLog = createMovieLog(`sqlite://${file}?client=sqlite3&mode=ro`)
    const sqliteError = await sqliteLog.listMovies().catch((error: unknown) => error)
    expect(sqliteError).toBeInstanceOf(UnsupportedStoreError)
    expect((sqliteError as Error).message).toMatch(/unknown parameter 'mode'/)
    // Neither the file nor one named with the parameter was made.
    expect(readdirSync(dirname(file))).toEqual([])
    // A plain path has no parameters: sqlite() opens it as it is, `?` and all.
    const odd = join(dirname(file), 'what?.sqlite')
    const log = createMovieLog(sqlite(odd, { client: 'sqlite3' }))
    await log.addMovie(aMovie())
    await log.close()
    expect(readdirSync(dirname(file))).toContain('what?.sqlite')

    const postgres = createMovieLog('postgres://me:s3cret@127.0.0.1:9/test?namespace=mine')
    const postgresError = await postgres.listMovies().catch((error: unknown) => error)
    expect(postgresError).toBeInstanceOf(UnsupportedStoreError)
    expect((postgresError as Error).message).toMatch(/namespace parameter.*option of the log/)
    expect((postgresError as Error).message).not.toContain('s3cret')
  })
})

describe('a keyv store movie-log has no driver of its own for', () => {
  it('gets the scan driver, which says once per store what it lacks', async () => {
    const warnings: string[] = []
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation((warning) => {
      warnings.push(String(warning))
    })
    try {
      // A user's own @keyv/sqlite adapter: it documents no ordered range or compare-and-set.
      const adapter = new KeyvSqlite(
        `sqlite://${join(tempFolder('movie-log-scan-'), 'keyv.sqlite')}`,
      )
      const log = createMovieLog(adapter)
      const movie = await log.addMovie(aMovie())
      expect((await log.listMovies()).movies).toEqual([movie])
      createMovieLog(adapter)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(/scan driver: every page reads the whole store/)
      await adapter.disconnect()
    } finally {
      spy.mockRestore()
    }
  })
})
