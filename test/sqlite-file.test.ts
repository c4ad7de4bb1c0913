// Issue 61 item 6, the SQLite file a store URL names: `~/` is the home folder (it made a folder
// named `~`), and what movie-log creates is its owner's alone (it was readable by every user).
import { chmodSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { homedir, platform } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMovieLog } from 'movie-log'
import { afterEach, describe, expect, it } from 'vitest'
import { parseSqliteUrl } from '../src/drivers/sqlite/file'
import { aMovie } from './_movies'
import { startServerProcess, stop } from './_processes'
import { post } from './_server-client'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()
// The server's working folder (./_processes.ts starts it there).
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const modeOf = (path: string) => statSync(path).mode & 0o777

// storeTimeoutMs: a hang guard only; a busy machine may take seconds over a new file's first add.
async function addOneTo(url: string): Promise<void> {
  const log = createMovieLog(url, { storeTimeoutMs: 60_000 })
  try {
    await log.addMovie(aMovie())
    expect((await log.listMovies()).movies).toHaveLength(1)
  } finally {
    await log.close()
  }
}

describe('sqlite://~/… in MOVIE_LOG_STORE', () => {
  // What the old code made, in the server's working folder: removed, whatever the test finds.
  const tilde = join(ROOT, '~')
  const existedBefore = existsSync(tilde)
  afterEach(() => {
    if (!existedBefore) rmSync(tilde, { recursive: true, force: true })
  })

  it('is a file in the home folder, not in a folder named ~', async () => {
    const home = tempFolder('movie-log-home-')
    const server = await startServerProcess({
      HOME: home,
      MOVIE_LOG_STORE: 'sqlite://~/diary-61/movies.sqlite',
    })
    try {
      expect((await post(server.url)).status).toBe(201)
    } finally {
      await stop(server)
    }
    expect(existsSync(join(home, 'diary-61', 'movies.sqlite'))).toBe(true)
    expect(existsSync(join(tilde, 'diary-61'))).toBe(false)
  })
})

describe('sqlite://~/… where an older movie-log kept it', () => {
  const tilde = join(ROOT, '~')
  const existedBefore = existsSync(tilde)
  afterEach(() => {
    if (!existedBefore) rmSync(tilde, { recursive: true, force: true })
  })

  // An older movie-log made ./~/…: opened from the home folder now, it would be a new, empty
  // diary. Refused, naming both (the working folder is the repository's, as vitest runs it).
  it('is refused, naming both, rather than a new empty diary begun at home', () => {
    const name = `diary-61-older-${process.pid}`
    mkdirSync(join(tilde, name), { recursive: true })
    writeFileSync(join(tilde, name, 'movies.sqlite'), '')
    expect(() => parseSqliteUrl(`sqlite://~/${name}/movies.sqlite`)).toThrow(
      /now names .*older movie-log kept for it is at .*~/,
    )
    expect(parseSqliteUrl(`sqlite://~/${name}-new/movies.sqlite`).path).toBe(
      join(homedir(), `${name}-new`, 'movies.sqlite'),
    )
  })
})

describe.skipIf(platform() === 'win32')('the SQLite file movie-log creates', () => {
  it('is 0600 in folders of 0700, its WAL too', async () => {
    const root = tempFolder('movie-log-modes-')
    chmodSync(root, 0o755)
    const file = join(root, 'new', 'deeper', 'movies.sqlite')
    const log = createMovieLog(`sqlite://${file}`, { storeTimeoutMs: 60_000 })
    try {
      await log.addMovie(aMovie())
      expect(modeOf(join(root, 'new'))).toBe(0o700)
      expect(modeOf(join(root, 'new', 'deeper'))).toBe(0o700)
      expect(modeOf(file)).toBe(0o600)
      expect(modeOf(`${file}-wal`)).toBe(0o600)
      // The folder that was there is left as it was.
      expect(modeOf(root)).toBe(0o755)
    } finally {
      await log.close()
    }
  })

  it('leaves a file and folder that exist as they are', async () => {
    const folder = join(tempFolder('movie-log-modes-'), 'shared')
    mkdirSync(folder, { mode: 0o755 })
    chmodSync(folder, 0o755)
    const file = join(folder, 'movies.sqlite')
    writeFileSync(file, '')
    chmodSync(file, 0o644)
    await addOneTo(`sqlite://${file}`)
    expect(modeOf(folder)).toBe(0o755)
    expect(modeOf(file)).toBe(0o644)
  })
})
