import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { createMovieLog, importMovies } from 'movie-log'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeExport } from '../src/cli/export'
import { openOutFile } from '../src/cli/out-file'
import { flakyScanStore } from './_flaky-map'
import { aMovie } from './_movies'
import { CLI } from './_processes'
import { tempFolders } from './_temp'

// `movie-log export --out FILE` and to a pipe: what a failed or refused export leaves behind.
const work = tempFolders()('movie-log-cli-export-')
const DIARY = join(work, 'diary.sqlite')
const MOVIES = 1200 // more than a pipe holds (64 KiB) and more than one page (500)

function movieLog(args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: work,
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** How many movies a fresh log on `url` exports. */
async function countOf(url: string): Promise<number> {
  const log = createMovieLog(url)
  try {
    return await writeExport(log, 'ndjson', new Writable({ write: (_c, _e, done) => done() }))
  } finally {
    await log.close()
  }
}

describe('movie-log export --out', () => {
  // The diary stays open here, as a server's would: its -wal file is there while the command runs.
  const diary = createMovieLog(`sqlite://${DIARY}`)
  beforeAll(async () => {
    const rows = Array.from({ length: MOVIES }, (_, i) => ({
      line: i,
      movie: aMovie({ title: `${i}` }),
    }))
    expect((await importMovies(diary, rows)).added).toBe(MOVIES)
  })
  afterAll(() => diary.close())

  it("refuses the store's own file or its -wal, by any path to it, and the diary stays whole", async () => {
    expect(existsSync(`${DIARY}-wal`)).toBe(true)
    const sizes = () => [statSync(DIARY).size, statSync(`${DIARY}-wal`).size]
    const before = sizes()
    symlinkSync(DIARY, join(work, 'link.sqlite'))
    const paths: [string, string][] = [
      ['sqlite://./diary.sqlite', './diary.sqlite'],
      ['sqlite://./diary.sqlite', DIARY],
      [`sqlite://${DIARY}`, 'link.sqlite'],
      [`sqlite://${DIARY}`, 'diary.sqlite-wal'],
    ]
    for (const [store, out] of paths) {
      const result = movieLog(['export', '--store', store, '--out', out])
      expect([out, result.code]).toEqual([out, 2])
      expect(result.stderr).toContain(`movie-log: --out: ${out} is the store's own file`)
      expect(sizes()).toEqual(before)
    }
    expect((await diary.listMovies({ limit: 1000 })).movies).toHaveLength(1000)
    expect(await countOf(`sqlite://${DIARY}`)).toBe(MOVIES)
  })

  it('names --out in one line when it cannot be written, and leaves no file', () => {
    const missing = movieLog(['export', '--store', `sqlite://${DIARY}`, '--out', '/no/such/x.csv'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe(
      'movie-log: --out: cannot write /no/such/x.csv: the folder /no/such does not exist\n',
    )
    const full = movieLog(['export', '--store', `sqlite://${DIARY}`, '--out', '/dev/full'])
    expect([full.code, full.stderr]).toEqual([
      1,
      'movie-log: --out: cannot write /dev/full: no space left on the disk\n',
    ])
    expect(readdirSync(work).filter((name) => name.startsWith('.'))).toEqual([])
  })

  it('ends quietly, exit code 0, when the reader stops reading (movie-log export | head -1)', async () => {
    const child = spawn(process.execPath, [CLI, 'export', '--store', `sqlite://${DIARY}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (data) => {
      stderr += data
    })
    const [first] = (await once(child.stdout, 'data')) as [Buffer]
    expect(first.toString()).toMatch(/^\{"id":/)
    child.stdout.destroy() // as head does once it has its line
    const [code] = await once(child, 'exit')
    expect([code, stderr]).toEqual([0, ''])
  })
})

describe('a failed export', () => {
  it('leaves no file, and an older file as it was', async () => {
    const store = flakyScanStore()
    const log = createMovieLog(store.keyv)
    const rows = Array.from({ length: 501 }, (_, i) => ({
      line: i,
      movie: aMovie({ title: `${i}` }),
    }))
    expect((await importMovies(log, rows)).added).toBe(501)
    const out = join(work, 'older.csv')
    writeFileSync(out, 'the older export\n')
    const file = await openOutFile(out, [])
    // The store goes away once the first page (of two) is written.
    const failed = await writeExport(log, 'csv', file.stream, () => store.failAfter(0)).catch(
      (error: unknown) => file.discard(error),
    )
    expect(failed).toMatchObject({ name: 'StoreUnavailableError' })
    expect(readFileSync(out, 'utf8')).toBe('the older export\n')
    expect(readdirSync(work).filter((name) => name.includes('older'))).toEqual(['older.csv'])
  })
})

describe('an export over an older file', () => {
  it('keeps the mode of the file it replaces (a private export stays private)', async () => {
    const out = join(work, 'private.csv')
    writeFileSync(out, 'the older export\n', { mode: 0o600 })
    const file = await openOutFile(out, [])
    file.stream.end('the new export\n')
    await once(file.stream, 'finish')
    await file.commit()
    expect(readFileSync(out, 'utf8')).toBe('the new export\n')
    expect(statSync(out).mode & 0o777).toBe(0o600)
  })
})
