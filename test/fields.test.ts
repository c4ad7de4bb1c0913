import { createMovieLog, MovieValidationError, type NewMovie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { aMovie, MOVIE_FIELDS, untyped } from './_movies'

const ok = (input: Record<string, unknown>, expected: Record<string, unknown> = {}) =>
  ({ input: aMovie(input), accepted: expected }) as const
const bad = (input: Record<string, unknown>, paths: string[], message?: RegExp) =>
  ({ input: aMovie(input), refused: paths, message }) as const

const longLink = (length: number) => {
  const base = 'https://www.imdb.com/title/tt0113277/?q='
  return base + 'a'.repeat(length - base.length)
}
const emoji = (count: number) => '🎬'.repeat(count)

// [name, case]: every rule of the contract, at and just past each bound.
const rows: [string, ReturnType<typeof ok> | ReturnType<typeof bad>][] = [
  // title
  ['title of 1 character', ok({ title: 'M' })],
  ['title of 500 characters', ok({ title: 'a'.repeat(500) })],
  ['title of 501 characters', bad({ title: 'a'.repeat(501) }, ['title'], /at most 500/)],
  [
    'title of 500 after trimming',
    ok({ title: `  ${'a'.repeat(500)}  ` }, { title: 'a'.repeat(500) }),
  ],
  ['title trimmed', ok({ title: '\t Heat \n' }, { title: 'Heat' })],
  ['title of 500 emoji', ok({ title: emoji(500) })],
  ['title of 501 emoji', bad({ title: emoji(501) }, ['title'])],
  ['empty title', bad({ title: '' }, ['title'], /empty/)],
  ['white-space title', bad({ title: '   \t ' }, ['title'], /empty/)],
  ['numeric title', bad({ title: 1995 }, ['title'], /string/)],
  ['null title', bad({ title: null }, ['title'])],
  ['array title', bad({ title: ['Heat'] }, ['title'])],
  ['missing title', bad({ title: undefined }, ['title'], /required/)],
  // Text a page shows as it is: no control or bidirectional override characters in titles.
  ['title with a NUL', bad({ title: 'a\u0000b' }, ['title'], /control characters.*U\+0000/)],
  ['title with a tab inside', bad({ title: 'Heat\tII' }, ['title'], /control characters/)],
  ['title with a line break inside', bad({ title: 'Heat\nII' }, ['title'], /control/)],
  ['title with DEL', bad({ title: 'Heat\u007f' }, ['title'], /U\+007F/)],
  ['title with a C1 control', bad({ title: 'Heat\u0085' }, ['title'], /control/)],
  [
    'title starting with a right-to-left override',
    bad({ title: '\u202egnp.exe' }, ['title'], /bidirectional.*U\+202E at position 1/),
  ],
  ['title with a left-to-right embedding', bad({ title: 'a\u202ab' }, ['title'], /bidi/)],
  ['title with a first-strong isolate', bad({ title: 'a\u2068b\u2069' }, ['title'], /bidi/)],
  ['title with a right-to-left mark', ok({ title: 'Heat\u200f' })],
  ['title in Hebrew', ok({ title: 'הסנדק' })],
  // screenedDate
  ['ordinary date', ok({ screenedDate: '2024-05-01T20:30:00.000' })],
  ['Feb 29 in a leap year', ok({ screenedDate: '2024-02-29T12:00:00.000' })],
  ['Feb 29 in 2000 (divisible by 400)', ok({ screenedDate: '2000-02-29T12:00:00.000' })],
  ['Feb 29 in 2023', bad({ screenedDate: '2023-02-29T12:00:00.000' }, ['screenedDate'], /28 days/)],
  ['Feb 29 in 1900 (century)', bad({ screenedDate: '1900-02-29T12:00:00.000' }, ['screenedDate'])],
  ['Feb 29 in 0096', ok({ screenedDate: '0096-02-29T12:00:00.000' })],
  ['Feb 29 in 0099', bad({ screenedDate: '0099-02-29T12:00:00.000' }, ['screenedDate'])],
  ['Feb 30', bad({ screenedDate: '2024-02-30T12:00:00.000' }, ['screenedDate'])],
  ['Apr 30', ok({ screenedDate: '2024-04-30T12:00:00.000' })],
  ['Apr 31', bad({ screenedDate: '2024-04-31T12:00:00.000' }, ['screenedDate'], /30 days/)],
  ['Dec 31', ok({ screenedDate: '2024-12-31T23:59:59.999' })],
  ['month 00', bad({ screenedDate: '2024-00-10T12:00:00.000' }, ['screenedDate'], /month/)],
  ['month 13', bad({ screenedDate: '2024-13-10T12:00:00.000' }, ['screenedDate'], /month/)],
  ['day 00', bad({ screenedDate: '2024-05-00T12:00:00.000' }, ['screenedDate'])],
  ['midnight', ok({ screenedDate: '2024-05-01T00:00:00.000' })],
  ['hour 23', ok({ screenedDate: '2024-05-01T23:00:00.000' })],
  ['hour 24', bad({ screenedDate: '2024-05-01T24:00:00.000' }, ['screenedDate'], /hour/)],
  ['minute 59', ok({ screenedDate: '2024-05-01T20:59:00.000' })],
  ['minute 60', bad({ screenedDate: '2024-05-01T20:60:00.000' }, ['screenedDate'], /minutes/)],
  ['second 60', bad({ screenedDate: '2024-05-01T20:30:60.000' }, ['screenedDate'], /seconds/)],
  ['no milliseconds', bad({ screenedDate: '2024-05-01T20:30:00' }, ['screenedDate'], /form/)],
  ['two-digit milliseconds', bad({ screenedDate: '2024-05-01T20:30:00.00' }, ['screenedDate'])],
  ['four-digit milliseconds', bad({ screenedDate: '2024-05-01T20:30:00.0000' }, ['screenedDate'])],
  ['trailing Z', bad({ screenedDate: '2024-05-01T20:30:00.000Z' }, ['screenedDate'], /local time/)],
  [
    'offset +02:00',
    bad({ screenedDate: '2024-05-01T20:30:00.000+02:00' }, ['screenedDate'], /local time/),
  ],
  [
    'offset -05:00',
    bad({ screenedDate: '2024-05-01T20:30:00.000-05:00' }, ['screenedDate'], /offset/),
  ],
  [
    'offset +0200',
    bad({ screenedDate: '2024-05-01T20:30:00.000+0200' }, ['screenedDate'], /local time/),
  ],
  ['space for T', bad({ screenedDate: '2024-05-01 20:30:00.000' }, ['screenedDate'])],
  ['lower-case t', bad({ screenedDate: '2024-05-01t20:30:00.000' }, ['screenedDate'])],
  ['date only', bad({ screenedDate: '2024-05-01' }, ['screenedDate'], /form/)],
  ['epoch number', bad({ screenedDate: 1714595400000 }, ['screenedDate'], /string/)],
  ['missing date', bad({ screenedDate: undefined }, ['screenedDate'], /required/)],
  // releaseYear
  ['release year 1869', bad({ releaseYear: 1869 }, ['releaseYear'], /1870 to 9999/)],
  ['release year 1870', ok({ releaseYear: 1870 })],
  ['release year 9999', ok({ releaseYear: 9999 })],
  ['release year 10000', bad({ releaseYear: 10000 }, ['releaseYear'], /1870 to 9999/)],
  ['release year as a string', bad({ releaseYear: '1995' }, ['releaseYear'], /not a string/)],
  ['fractional release year', bad({ releaseYear: 1995.5 }, ['releaseYear'], /whole number/)],
  ['null release year', bad({ releaseYear: null }, ['releaseYear'])],
  ['negative release year', bad({ releaseYear: -1995 }, ['releaseYear'])],
  ['missing release year', bad({ releaseYear: undefined }, ['releaseYear'], /required/)],
  // imdbLink
  ['https link', ok({ imdbLink: 'https://www.imdb.com/title/tt0113277/' })],
  [
    'link with query and fragment',
    ok({ imdbLink: 'https://m.imdb.com/title/tt0113277/?ref_=x#top' }),
  ],
  ['http link', bad({ imdbLink: 'http://www.imdb.com/title/tt0113277/' }, ['imdbLink'], /https/)],
  ['ftp link', bad({ imdbLink: 'ftp://www.imdb.com/title/tt0113277/' }, ['imdbLink'], /https/)],
  ['relative link', bad({ imdbLink: '/title/tt0113277/' }, ['imdbLink'], /absolute/)],
  ['link without host', bad({ imdbLink: 'https://' }, ['imdbLink'])],
  ['link of 2048 characters', ok({ imdbLink: longLink(2048) })],
  ['link of 2049 characters', bad({ imdbLink: longLink(2049) }, ['imdbLink'], /2048/)],
  [
    'link with a space inside',
    bad({ imdbLink: 'https://www.imdb.com/title/tt 0113277/' }, ['imdbLink']),
  ],
  ['link with surrounding spaces', bad({ imdbLink: ' https://www.imdb.com/ ' }, ['imdbLink'])],
  ['numeric link', bad({ imdbLink: 113277 }, ['imdbLink'])],
  ['missing link', bad({ imdbLink: undefined }, ['imdbLink'], /required/)],
  ['link to imdb.com itself', ok({ imdbLink: 'https://imdb.com/title/tt0113277/' })],
  ['link in upper case', ok({ imdbLink: 'HTTPS://WWW.IMDB.COM/title/tt0113277/' })],
  ['link with a port', ok({ imdbLink: 'https://www.imdb.com:443/title/tt0113277/' })],
  // Past the slash after the host, `@` and a backslash belong to the path: the host is IMDb's.
  ['link with @ in its path', ok({ imdbLink: 'https://www.imdb.com/@evil.example/' })],
  ['link with a backslash in its path', ok({ imdbLink: 'https://www.imdb.com/\\evil.example' })],
  ['link to another host', bad({ imdbLink: 'https://evil.example/' }, ['imdbLink'], /IMDb/)],
  ['link to a look-alike host', bad({ imdbLink: 'https://evilimdb.com/' }, ['imdbLink'], /IMDb/)],
  [
    'link to imdb.com as a subdomain of another host',
    bad({ imdbLink: 'https://www.imdb.com.evil.example/' }, ['imdbLink'], /IMDb/),
  ],
  [
    'link with a user name and password',
    bad({ imdbLink: 'https://user:pw@evil.example/' }, ['imdbLink'], /user name or password/),
  ],
  [
    'link to IMDb with a user name',
    bad({ imdbLink: 'https://user@www.imdb.com/' }, ['imdbLink'], /user name or password/),
  ],
  // catalogLink
  [
    'catalogLink alone',
    ok(
      { imdbLink: undefined, catalogLink: 'https://www.imdb.com/title/tt0113277/' },
      { imdbLink: 'https://www.imdb.com/title/tt0113277/' },
    ),
  ],
  ['catalogLink equal to imdbLink', ok({ catalogLink: 'https://www.imdb.com/title/tt0113277/' })],
  [
    'catalogLink differing from imdbLink',
    bad({ catalogLink: 'https://www.imdb.com/title/tt0000001/' }, ['catalogLink'], /imdbLink/),
  ],
  [
    'http catalogLink',
    bad({ imdbLink: undefined, catalogLink: 'http://www.imdb.com/' }, ['catalogLink'], /https/),
  ],
  ['numeric catalogLink', bad({ imdbLink: undefined, catalogLink: 5 }, ['catalogLink'])],
  [
    'http catalogLink equal to imdbLink',
    bad({ imdbLink: 'http://www.imdb.com/', catalogLink: 'http://www.imdb.com/' }, ['imdbLink']),
  ],
  // notes
  ['empty notes', ok({ notes: '' })],
  ['notes omitted', ok({ notes: undefined }, { notes: '' })],
  ['notes of 10000 characters', ok({ notes: 'n'.repeat(10_000) })],
  ['notes of 10001 characters', bad({ notes: 'n'.repeat(10_001) }, ['notes'], /10000/)],
  ['notes kept untrimmed', ok({ notes: '  spaced  ' }, { notes: '  spaced  ' })],
  ['notes with line breaks and tabs', ok({ notes: 'Row 5\r\n\tseat 12\nbring tissues' })],
  ['notes with a NUL', bad({ notes: 'ok\u0000' }, ['notes'], /control characters/)],
  ['notes with a vertical tab', bad({ notes: 'a\u000bb' }, ['notes'], /U\+000B/)],
  ['notes with a C1 control', bad({ notes: 'a\u009bb' }, ['notes'], /control/)],
  ['notes with a right-to-left override', bad({ notes: 'a\u202eb' }, ['notes'], /bidi/)],
  ['notes with a pop directional isolate', bad({ notes: 'a\u2069' }, ['notes'], /bidi/)],
  ['numeric notes', bad({ notes: 5 }, ['notes'], /string/)],
  ['null notes', bad({ notes: null }, ['notes'])],
  // other fields
  ['an id', bad({ id: 'mine' }, ['id'], /not a movie field/)],
  ['an unknown field', bad({ stars: 5 }, ['stars'], /not a movie field/)],
  ['a constructor field', bad({ constructor: 'x' }, ['constructor'], /not a movie field/)],
  // several at once
  [
    'every field wrong',
    bad(
      { title: '', screenedDate: 'x', releaseYear: '1', imdbLink: 'http://a', notes: 1, extra: 1 },
      ['title', 'screenedDate', 'releaseYear', 'imdbLink', 'notes', 'extra'],
    ),
  ],
]

describe('the field rules', () => {
  it.each(rows)('%s', async (_name, row) => {
    const log = createMovieLog()
    if ('accepted' in row) {
      const movie = await log.addMovie(row.input)
      const { catalogLink: _alias, ...sent } = row.input as NewMovie
      expect(movie).toEqual({ id: movie.id, ...sent, notes: sent.notes ?? '', ...row.accepted })
      expect((await log.listMovies()).movies).toEqual([movie])
      return
    }
    const error = await log.addMovie(row.input).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MovieValidationError)
    const { issues } = error as MovieValidationError
    expect(issues.map((issue) => issue.path).sort()).toEqual([...row.refused].sort())
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(5)
    if (row.message) expect(issues.map((issue) => issue.message).join(' ')).toMatch(row.message)
    expect((await log.listMovies()).movies).toEqual([])
  })
})

describe('hostile and odd inputs', () => {
  it('refuses __proto__ as a field and pollutes nothing', async () => {
    const log = createMovieLog()
    const input = JSON.parse(
      `{"title":"Heat","screenedDate":"2024-05-01T20:30:00.000","releaseYear":1995,"imdbLink":"https://www.imdb.com/","__proto__":{"polluted":true}}`,
    )
    const error = (await log.addMovie(input).catch((e: unknown) => e)) as MovieValidationError
    expect(error.issues).toEqual([
      { path: '__proto__', message: expect.stringContaining('not a movie field') },
    ])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each([[null], [[]], ['Heat'], [1995], [true]])(
    'refuses %j as a movie, naming the body',
    async (input) => {
      const error = (await createMovieLog()
        .addMovie(untyped(input))
        .catch((e: unknown) => e)) as MovieValidationError
      expect(error).toBeInstanceOf(MovieValidationError)
      expect(error.issues).toEqual([{ path: '', message: 'must be a JSON object' }])
    },
  )

  it('names ten unknown fields at most, and counts the rest', async () => {
    const input = aMovie(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`x${i}`, 0])))
    const error = (await createMovieLog()
      .addMovie(input)
      .catch((e: unknown) => e)) as MovieValidationError
    expect(error.issues.map((issue) => issue.path)).toEqual(
      Array.from({ length: 10 }, (_, i) => `x${i}`),
    )
    expect(error.issues.at(-1)?.message).toMatch(/; 4990 more unknown field\(s\) not listed$/)
    expect(error.message.length).toBeLessThan(3000)
  })

  it('returns exactly the six fields, in order, and a frozen movie', async () => {
    const movie = await createMovieLog().addMovie(
      aMovie({ catalogLink: 'https://www.imdb.com/title/tt0113277/' }),
    )
    expect(Object.keys(movie)).toEqual(MOVIE_FIELDS)
    expect(Object.isFrozen(movie)).toBe(true)
  })

  it('is recognised by class and by name', async () => {
    const error = await createMovieLog()
      .addMovie(untyped({}))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MovieValidationError)
    expect(MovieValidationError.is(error)).toBe(true)
    expect(
      MovieValidationError.is(Object.assign(new Error('x'), { name: 'MovieValidationError' })),
    ).toBe(true)
    expect(MovieValidationError.is(new Error('x'))).toBe(false)
  })
})
