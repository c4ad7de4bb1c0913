import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMovieLog } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { CLI } from './_processes'
import { tempFolders } from './_temp'

// movie-log export / import / copy as a script runs them: a process, its exit code, its output.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const IMDB_FIXTURE = fileURLToPath(new URL('./fixtures/imdb-ratings.csv', import.meta.url))
const work = tempFolders()('movie-log-cli-data-')

function movieLog(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    env: { ...process.env, MOVIE_LOG_STORE: 'memory://' },
    timeout: 60_000,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('movie-log export, import and copy', () => {
  const a = `sqlite://${join(work, 'a.sqlite')}`
  const b = `sqlite://${join(work, 'b.sqlite')}`

  it('imports an IMDb export: refused rows on stderr by line, exit 1, nothing twice', () => {
    const first = movieLog(['import', IMDB_FIXTURE, '--store', a])
    expect(first.code).toBe(1)
    expect(JSON.parse(first.stdout)).toEqual({ added: 4, skipped: 0, refused: 2 })
    expect(first.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^line 5: URL: is empty/),
      expect.stringMatching(/^line 7: Year: is empty/),
    ])
    const again = movieLog(['import', IMDB_FIXTURE, '--store', a, '--format', 'imdb'])
    expect(JSON.parse(again.stdout)).toEqual({ added: 0, skipped: 4, refused: 2 })
  })

  it('exports CSV and Letterboxd to a file or standard output, and reads NDJSON from stdin', () => {
    const out = join(work, 'movies.csv')
    expect(movieLog(['export', '--store', a, '--format', 'csv', '--out', out]).code).toBe(0)
    const csv = readFileSync(out, 'utf8')
    expect(csv.split('\r\n')).toHaveLength(6) // header, four movies, the last CRLF
    const letterboxd = movieLog(['export', '--store', a, '--format', 'letterboxd'])
    expect(letterboxd.stdout).toMatch(/^Title,Year,imdbID,WatchedDate,Rating,Tags,Review\r\n/)
    expect(letterboxd.stdout).toContain('Heat,1995,tt0113277,2024-05-01,4.5,,\r\n')
    const ndjson = movieLog(['export', '--store', a]).stdout
    const piped = movieLog(['import', '-', '--store', b], ndjson)
    expect([piped.code, JSON.parse(piped.stdout)]).toEqual([
      0,
      { added: 4, skipped: 0, refused: 0 },
    ])
  })

  it('copies with ids and verifies; a target holding other content under an id fails with 1', async () => {
    const c = `sqlite://${join(work, 'c.sqlite')}`
    const copied = movieLog(['copy', a, c])
    expect(copied.code).toBe(0)
    expect(JSON.parse(copied.stdout)).toMatchObject({
      copied: 4,
      source: 4,
      matching: 4,
      verified: true,
    })
    expect(JSON.parse(movieLog(['copy', a, c]).stdout)).toMatchObject({ copied: 0, skipped: 4 })

    // The same id with another title in the target: refused, and the copy does not verify.
    const source = createMovieLog(a)
    const [movie] = (await source.listMovies({ limit: 1 })).movies
    await source.close()
    const d = `sqlite://${join(work, 'd.sqlite')}`
    const other = createMovieLog(d)
    const { importMovies } = await import('movie-log')
    await importMovies(other, [{ line: 1, movie: { ...movie, ...aMovie() } }])
    await other.close()
    const failed = movieLog(['copy', a, d])
    expect(failed.code).toBe(1)
    expect(JSON.parse(failed.stdout)).toMatchObject({ refused: 1, different: 1, verified: false })
    expect(failed.stderr).toMatch(/already in the log with other content/)
  })

  it('refuses a broken zip, and a hostile CSV header, in one line ending in a line break, storing nothing', () => {
    // A Letterboxd export as it is downloaded: a zip of CSV files.
    const zip = join(work, 'letterboxd-export.zip')
    const entry = Buffer.from('Date,Name,Year\n')
    writeFileSync(zip, Buffer.concat([Buffer.from('PK\x03\x04\x14\0\0\0\0\0'), entry]))
    const header = join(work, 'hostile.csv')
    writeFileSync(header, '"a\rb\u001b]0;pwned\u0007",title\n')
    const store = `sqlite://${join(work, 'refusals.sqlite')}`
    const zipped = movieLog(['import', zip, '--store', store])
    expect([zipped.code, zipped.stdout, zipped.stderr]).toEqual([
      1,
      '',
      `movie-log: ${zip}: a zip that cannot be read (invalid zip data)\n`,
    ])
    const hostile = movieLog(['import', header, '--store', store])
    expect([hostile.code, hostile.stderr]).toEqual([
      1,
      "movie-log: line 1: the CSV header has 'a\\u000db\\u001b]0;pwned\\u0007': the columns are id,title,screenedDate,releaseYear,imdbLink,notes,rating,tags (or an IMDb ratings export)\n",
    ])
    expect(movieLog(['export', '--store', store]).stdout).toBe('')
  })

  it('exits 2 for a usage error: an unknown format, a malformed store URL, a missing argument', () => {
    for (const args of [
      ['export', '--format', 'xml'],
      ['export', '--store', 'ftp://nowhere'],
      ['copy', 'memory://'],
      ['import', join(work, 'no-such-file.csv')],
    ]) {
      const result = movieLog(args)
      expect([args, result.code]).toEqual([args, 2])
      expect(result.stderr).toMatch(/^movie-log: /m)
    }
  })
})
