import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES, letterboxdZip as zipInto } from './_import-files'
import { CLI } from './_processes'
import { tempFolders } from './_temp'

// movie-log import of Letterboxd, Trakt and Netflix histories, as a person runs it: a process,
// its exit code, its output, the unmatched file it leaves, and a second run that adds nothing.
const work = tempFolders()('movie-log-cli-history-')

function movieLog(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: work,
    encoding: 'utf8',
    env: {
      ...process.env,
      MOVIE_LOG_STORE: 'memory://',
      MOVIE_LOG_TIME_ZONE: 'Europe/Paris',
      ...env,
    },
    timeout: 60_000,
  })
  const { stdout, stderr } = result
  // An import's report is one JSON line; an export, one line per movie.
  const report = /^\{.*\}\n$/.test(stdout) ? JSON.parse(stdout) : undefined
  return { code: result.status, report, stdout, stderr }
}

/** `movie-log import` of a fixture, its unmatched rows to `unmatched`. */
const importFixture = (name: string, store: string, unmatched: string, ...more: string[]) =>
  movieLog(['import', join(FIXTURES, name), '--store', store, '--unmatched', unmatched, ...more])

const exported = (store: string) =>
  movieLog(['export', '--store', store])
    .stdout.split('\n')
    .filter(Boolean)
    .map((line: string) => JSON.parse(line))

const letterboxdZip = () => zipInto(work)

/** The unmatched file with `links` (title -> IMDb link) written in, as a person corrects it. */
function corrected(
  file: string,
  links: Record<string, [link: string, year: number]>,
  out = `${file}.fixed.csv`,
): string {
  const row = /^([^,\r\n]+),([^,\r\n]+),([^,\r\n]+),(\d*),,/gm
  const text = readFileSync(file, 'utf8').replace(row, (found, id, title, day) => {
    const [link, year] = links[title] ?? []
    return link ? `${id},${title},${day},${year},${link},` : found
  })
  writeFileSync(out, text)
  return out
}

describe('movie-log import of a history', () => {
  it('Letterboxd zip: no catalog, every entry unmatched with its review; corrected, imported once', () => {
    const store = `sqlite://${join(work, 'letterboxd.sqlite')}`
    const zip = letterboxdZip()
    const first = movieLog(['import', zip, '--store', store])
    expect([first.code, first.report]).toEqual([
      0,
      { added: 0, skipped: 0, refused: 0, matched: 0, unmatched: 3, episodes: 0, trailers: 0 },
    ])
    expect(first.stderr).toMatch(
      /3 rows not imported, written to .*\.zip\.unmatched\.csv: no IMDb catalog is loaded: run movie-log catalog load/,
    )
    const unmatched = readFileSync(`${zip}.unmatched.csv`, 'utf8')
    expect(unmatched.split('\r\n')[0]).toBe(
      'id,title,screenedDate,releaseYear,imdbLink,notes,rating,tags,candidates',
    )
    // The diary's three entries (not deleted/ or orphaned/), the review joined as notes.
    expect(unmatched).toContain(
      ',Heat,2024-05-01T00:00:00.000,1995,,"The bank job, then the airport.\nStill the best score.",9,"cinema, 35mm",',
    )
    expect(unmatched).toContain(',Amélie,2024-05-09T00:00:00.000,2001,,,')
    expect(unmatched).not.toMatch(/Cats|Morbius|Alien|Ran/)
    // Run again, the same file holds the rows still unmatched: no second file beside it.
    const second = movieLog(['import', zip, '--store', store])
    expect(second.stderr).toMatch(/3 rows not imported, written to .*\.zip\.unmatched\.csv:/)
    expect(readFileSync(`${zip}.unmatched.csv`, 'utf8')).toBe(unmatched)
    expect(readdirSync(work).filter((name) => /unmatched-\d/.test(name))).toEqual([])
    // Corrected where it is, then the zip imported again before it: the corrections are kept.
    const fixed = corrected(
      `${zip}.unmatched.csv`,
      {
        Heat: ['https://www.imdb.com/title/tt0113277/', 1995],
        Amélie: ['https://www.imdb.com/title/tt0211915/', 2001],
      },
      `${zip}.unmatched.csv`,
    )
    const typed = readFileSync(fixed, 'utf8')
    const early = movieLog(['import', zip, '--store', store])
    expect(early.report).toMatchObject({ added: 0, unmatched: 3 })
    expect(early.stderr).toMatch(
      /3 rows not imported; .*\.zip\.unmatched\.csv is left as it is: it holds corrections not imported yet\. Import it/,
    )
    expect(readFileSync(fixed, 'utf8')).toBe(typed)
    expect(movieLog(['import', fixed, '--store', store]).report).toEqual({
      added: 3,
      skipped: 0,
      refused: 0,
    })
    // Again, the zip: the corrected rows are there under the ids made from their entries, and
    // the unmatched file says that none is left.
    const again = movieLog(['import', zip, '--store', store])
    expect(again.report).toMatchObject({ added: 0, skipped: 3, unmatched: 0 })
    expect(again.stderr).toMatch(
      /^no row left unmatched: .*\.zip\.unmatched\.csv now lists none\n$/,
    )
    expect(readFileSync(fixed, 'utf8')).toBe(
      'id,title,screenedDate,releaseYear,imdbLink,notes,rating,tags,candidates\r\n',
    )
    const movies = exported(store)
    expect(movies).toHaveLength(3)
    expect(movies.map((movie: { notes: string }) => movie.notes)).toContain(
      'The bank job, then the airport.\nStill the best score.',
    )
  })

  it('Trakt CSV then JSON: movies only, watched_at in MOVIE_LOG_TIME_ZONE, one watch never twice', () => {
    const store = `sqlite://${join(work, 'trakt.sqlite')}`
    const unmatched = join(work, 'trakt-unmatched.csv')
    const csv = movieLog([
      'import',
      join(FIXTURES, 'trakt-history.csv'),
      '--store',
      store,
      '--unmatched',
      unmatched,
    ])
    expect([csv.code, csv.report]).toEqual([
      0,
      { added: 2, skipped: 0, refused: 0, matched: 0, unmatched: 1, episodes: 1, trailers: 0 },
    ])
    // Ran has no imdb_id on Trakt: kept for the person, not guessed.
    expect(readFileSync(unmatched, 'utf8')).toMatch(
      /\r\n[^,]+,Ran,2024-05-05T21:45:00\.000,1985,,,,,\r\n$/,
    )
    const json = movieLog([
      'import',
      join(FIXTURES, 'trakt-history.json'),
      '--store',
      store,
      '--unmatched',
      unmatched,
    ])
    expect(json.report).toEqual({
      added: 1,
      skipped: 1,
      refused: 0,
      matched: 0,
      unmatched: 0,
      episodes: 1,
      trailers: 0,
    })
    const again = movieLog([
      'import',
      join(FIXTURES, 'trakt-history.json'),
      '--store',
      store,
      '--format',
      'trakt',
    ])
    expect(again.report).toMatchObject({ added: 0, skipped: 2 })
    const days = exported(store).map((movie: { title: string; screenedDate: string }) => [
      movie.title,
      movie.screenedDate,
    ])
    expect(days.sort()).toEqual([
      ['Alien', '2024-05-03T23:15:00.000'],
      ['Heat', '2024-05-01T20:30:00.000'],
      ['Paris, Texas', '2024-06-03T00:10:00.000'],
    ])

    // Trakt's ratings rate the entries, adding none: a movie never watched is told, not added.
    const ratings = movieLog(['import', join(FIXTURES, 'trakt-ratings.json'), '--store', store])
    expect([ratings.code, ratings.report]).toEqual([
      0,
      { rated: 2, skipped: 0, refused: 0, matched: 0, notInDiary: 1, episodes: 2 },
    ])
    const rated = exported(store).map(({ title, rating }: { title: string; rating?: number }) => [
      title,
      rating,
    ])
    expect(rated.sort()).toEqual([
      ['Alien', 7],
      ['Heat', 10],
      ['Paris, Texas', undefined],
    ])
    const csvAgain = movieLog(['import', join(FIXTURES, 'trakt-ratings.csv'), '--store', store])
    expect(csvAgain.report).toEqual({
      rated: 0,
      skipped: 2,
      refused: 0,
      matched: 0,
      notInDiary: 1,
      episodes: 2,
    })
  })

  it('Netflix: ambiguous days need --date-format (exit 2, nothing stored); US and UK days read', () => {
    const store = `sqlite://${join(work, 'netflix.sqlite')}`
    const ambiguous = movieLog([
      'import',
      join(FIXTURES, 'netflix-ambiguous.csv'),
      '--store',
      store,
    ])
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.stderr).toContain(
      "read as MM/DD/YY or DD/MM/YY: name your account's form with --date-format",
    )
    const named = join(work, 'ambiguous-unmatched.csv')
    const given = movieLog([
      'import',
      join(FIXTURES, 'netflix-ambiguous.csv'),
      '--store',
      store,
      '--date-format',
      'DD/MM/YY',
      '--unmatched',
      named,
    ])
    expect(given.report).toMatchObject({ added: 0, unmatched: 2 })
    expect(readFileSync(named, 'utf8')).toContain(',Roma,2025-01-02T00:00:00.000,,,,')
    const us = join(work, 'us-unmatched.csv')
    const usRun = importFixture('netflix-us.csv', store, us)
    expect(usRun.report).toEqual({
      added: 0,
      skipped: 0,
      refused: 0,
      matched: 0,
      unmatched: 3,
      episodes: 1,
      trailers: 1,
    })
    expect(readFileSync(us, 'utf8')).toContain(',The Irishman,2025-01-02T00:00:00.000,,,,')
    const uk = join(work, 'uk-unmatched.csv')
    const ukRun = importFixture('netflix-uk.csv', store, uk)
    expect(ukRun.report).toMatchObject({ unmatched: 2, episodes: 1 })
    // The Irishman on 2 January, from the UK's 02/01/2025 as from the US's 1/2/25: one screening.
    const fixed = corrected(uk, {
      Roma: ['https://www.imdb.com/title/tt6155172/', 2018],
      'The Irishman': ['https://www.imdb.com/title/tt1302006/', 2019],
    })
    expect(movieLog(['import', fixed, '--store', store]).report).toEqual({
      added: 2,
      skipped: 0,
      refused: 0,
    })
    expect(importFixture('netflix-us.csv', store, us).report).toMatchObject({
      added: 0,
      skipped: 2,
      unmatched: 1,
    })
  })
})
