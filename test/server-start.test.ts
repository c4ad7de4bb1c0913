// Issue 16 item 5: a store the example server cannot start on is named in one line, with its
// URL, the cause in words and the store's own code, and never its password.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startPrivateRedis, stop } from './_processes'
import { describeWith } from './_services'
import { refusalOf } from './_start'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The one line the server refuses to start on `storeUrl` with. */
async function refusal(storeUrl: string): Promise<string> {
  const line = await refusalOf({ MOVIE_LOG_STORE: storeUrl })
  expect(line).toMatch(/^movie-log: cannot start: /)
  return line
}

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-start-'))
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }))
  return folder
}

describe('the example server refuses to start, naming the cause', () => {
  it.each([
    [
      'a refused Redis',
      'redis://127.0.0.1:1',
      /redis:\/\/127\.0\.0\.1:1 cannot be reached: connection refused \(ECONNREFUSED\)$/,
    ],
    [
      'a refused PostgreSQL',
      'postgres://postgres:pw@127.0.0.1:1/test',
      /postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/test cannot be reached: connection refused \(ECONNREFUSED\)$/,
    ],
    [
      'an unknown host',
      'redis://no-such-host.invalid:6379',
      /redis:\/\/no-such-host\.invalid:6379 cannot be reached: (unknown host|cannot resolve host) 'no-such-host\.invalid' \((ENOTFOUND|EAI_AGAIN)\)$/,
    ],
    [
      'a Redis database that is not a number',
      'redis://127.0.0.1:6379/seven',
      /'redis:\/\/127\.0\.0\.1:6379\/seven' names the database 'seven': it must be a number/,
    ],
    [
      'a PostgreSQL URL with no database',
      'postgres://user:pw@127.0.0.1:5432',
      /'postgres:\/\/user:\*\*\*@127\.0\.0\.1:5432' names no database/,
    ],
    [
      'a PostgreSQL URL with an empty database',
      'postgres://user@127.0.0.1:5432/',
      /names no database/,
    ],
  ])('%s', async (_what, storeUrl, message) => {
    const line = await refusal(storeUrl)
    expect(line).toMatch(message)
    expect(line).not.toContain(':pw@')
  })

  it('a SQLite file whose folder cannot be created, naming the path', async () => {
    const file = join(tempFolder(), 'a-file')
    writeFileSync(file, '')
    const path = join(file, 'data', 'movies.sqlite')
    const line = await refusal(`sqlite://${path}`)
    expect(line).toContain(`cannot create the SQLite file ${path}: `)
    expect(line).toMatch(/ENOTDIR/)
  })

  // Issue 37 item 9: Node's recursive mkdir spun a core forever here, and nothing was printed.
  it.runIf(process.platform === 'linux')(
    'a SQLite folder mkdir cannot make (/proc/nope), at once',
    async () => {
      const line = await refusal('sqlite:///proc/nope/x.sqlite')
      expect(line).toBe(
        "movie-log: cannot start: cannot create the SQLite file /proc/nope/x.sqlite: ENOENT: no such file or directory, mkdir '/proc/nope'",
      )
    },
  )

  it('a SQLite file that cannot be opened, naming the path', async () => {
    // A folder where the file should be: SQLite cannot open it as a database.
    const path = tempFolder()
    const line = await refusal(`sqlite://${path}`)
    expect(line).toContain(`cannot open the SQLite file ${path} (SQLITE_CANTOPEN)`)
  })
})

describeWith('redis-server', 'the example server refuses a Redis it cannot use', () => {
  async function redisWithPassword() {
    const redis = await startPrivateRedis(undefined, ['--requirepass', 's3cret'])
    cleanups.push(() => stop(redis, 'SIGKILL'))
    return redis
  }

  it('a wrong password', async () => {
    const { port } = await redisWithPassword()
    const line = await refusal(`redis://:wrong@127.0.0.1:${port}`)
    expect(line).toMatch(
      new RegExp(
        `redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port} refused the user name or password \\(WRONGPASS\\)$`,
      ),
    )
    expect(line).not.toContain('wrong@')
  })

  it('no password where one is needed', async () => {
    const { port } = await redisWithPassword()
    expect(await refusal(`redis://127.0.0.1:${port}`)).toMatch(/needs a password.*\(NOAUTH\)$/)
  })

  it('a database index Redis does not have', async () => {
    const redis = await startPrivateRedis()
    cleanups.push(() => stop(redis, 'SIGKILL'))
    expect(await refusal(`${redis.url}/77`)).toMatch(
      new RegExp(`${redis.url}/77 has no database 77 \\(ERR DB index is out of range`),
    )
  })
})

describeWith('POSTGRES_URL', 'the example server refuses a PostgreSQL it cannot use', () => {
  it('a database that does not exist', async () => {
    const url = new URL(process.env.POSTGRES_URL as string)
    url.pathname = '/movie_log_no_such_database'
    expect(await refusal(url.href)).toMatch(
      /\/movie_log_no_such_database has no database 'movie_log_no_such_database' \(3D000\)$/,
    )
  })
})
