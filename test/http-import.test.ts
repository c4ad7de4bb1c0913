import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type ClosableMovieLog,
  createMovieLog,
  createMovieLogs,
  type Movie,
  type MovieLog,
} from 'movie-log'
import { importFile, MovieLogHttpError } from 'movie-log/client'
import { openCatalog } from 'movie-log/sqlite'
import { toWebHandler } from 'movie-log/web'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFixtureCatalog } from './_catalog'
import { expectProblem } from './_http-helpers'
import { HTTP_TARGETS } from './_http-targets'
import { FIXTURES, letterboxdZipBytes } from './_import-files'
import { tempFolders } from './_temp'

// Issue 58: POST {base}/import, the files people bring, read as `movie-log import` reads them.
// Every answer of HTTP_TARGETS is held to the OpenAPI document.
const folder = tempFolders()('movie-log-http-import-')
const catalogPath = join(folder, 'catalog.sqlite')
const catalog = openCatalog(catalogPath)
beforeAll(() => loadFixtureCatalog(catalogPath))
afterAll(() => catalog.close())

const fixture = (name: string) => readFileSync(join(FIXTURES, name))
const post = (body: BodyInit, type: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body,
  headers: { 'content-type': type, ...headers },
})
const titles = async (log: MovieLog) =>
  (await log.listMovies({ sort: 'screenedDate' })).movies.map((movie: Movie) => movie.title)

describe.each(HTTP_TARGETS)('POST /movies/import on %s', (_name, serve) => {
  it('imports a Letterboxd zip: matched through the catalog, the rest unmatched to download; again, nothing added', async () => {
    const log = createMovieLog()
    const target = await serve(log, { catalog, timeZone: 'Europe/Paris' })
    try {
      const zip = letterboxdZipBytes()
      const response = await target.fetch('/movies/import', post(zip, 'application/zip'))
      expect(response.status).toBe(200)
      const report = await response.json()
      expect(report).toMatchObject({
        kind: 'history',
        added: 1,
        skipped: 0,
        refused: 0,
        matched: 1,
        unmatched: 2,
        refusals: [],
      })
      // Heat is not in the fixtures' catalog: both of its screenings, with their review.
      const [header, ...rows] = report.unmatchedCsv.trim().split('\r\n')
      expect(header).toBe('id,title,screenedDate,releaseYear,imdbLink,notes,rating,tags,candidates')
      expect(rows.map((row: string) => row.split(',')[1])).toEqual(['Heat', 'Heat'])
      expect(report.unmatchedCsv).toContain('The bank job, then the airport.')
      expect(await log.listMovies()).toMatchObject({
        movies: [
          {
            title: 'Amélie',
            releaseYear: 2001,
            imdbLink: 'https://www.imdb.com/title/tt0211915/',
            screenedDate: '2024-05-09T00:00:00.000',
            rating: 6,
          },
        ],
      })
      const again = await target.fetch('/movies/import', post(zip, 'application/zip'))
      expect(await again.json()).toMatchObject({ added: 0, skipped: 1, unmatched: 2 })
      expect(await titles(log)).toEqual(['Amélie'])
    } finally {
      await target.close()
    }
  })
})

describe.each(HTTP_TARGETS)('Trakt’s ratings through POST /movies/import on %s', (_name, serve) => {
  it('rate the latest entry of each movie, adding none', async () => {
    const log = createMovieLog()
    const target = await serve(log, { timeZone: 'Europe/Paris' })
    try {
      const history = await target.fetch(
        '/movies/import',
        post(fixture('trakt-history.csv'), 'text/csv'),
      )
      expect(await history.json()).toMatchObject({ added: 2 })
      const response = await target.fetch(
        '/movies/import',
        post(fixture('trakt-ratings.json'), 'application/json'),
      )
      expect(await response.json()).toMatchObject({
        kind: 'ratings',
        added: 0,
        rated: 2,
        notInDiary: 1,
        episodes: 2,
      })
      const rated = (await log.listMovies()).movies.map(({ title, rating }) => [title, rating])
      expect(rated.sort()).toEqual([
        ['Alien', 7],
        ['Heat', 10],
      ])
    } finally {
      await target.close()
    }
  })
})

// Each store the route was asked to show on: memory, and a SQLite file.
const STORES: [string, () => ClosableMovieLog][] = [
  ['memory', () => createMovieLog()],
  ['SQLite', () => createMovieLog(`sqlite://${join(folder, `${crypto.randomUUID()}.sqlite`)}`)],
]

describe.each(STORES)('the files people bring, on %s', (_name, open) => {
  const logs: ClosableMovieLog[] = []
  afterAll(() => Promise.all(logs.map((log) => log.close())))
  const handler = (options = {}) => {
    const log = open()
    logs.push(log)
    const handle = toWebHandler(log, { catalog, timeZone: 'Europe/Paris', ...options })
    const send = (path: string, init: RequestInit) =>
      handle(new Request(`http://movie-log.test/movies${path}`, init))
    return { log, send }
  }

  it('reads Trakt’s CSV and JSON as one history, Netflix’s days, and IMDb’s ratings', async () => {
    const { log, send } = handler()
    const csv = await send('/import', post(fixture('trakt-history.csv'), 'text/csv'))
    expect(await csv.json()).toMatchObject({ kind: 'history', added: 2, unmatched: 1, episodes: 1 })
    const json = await send('/import', post(fixture('trakt-history.json'), 'application/json'))
    // Heat again (skipped), Paris, Texas new; the episode passed over.
    expect(await json.json()).toMatchObject({ added: 1, skipped: 1, episodes: 1 })
    const heat = (await log.listMovies()).movies.find((movie) => movie.title === 'Heat')
    expect(heat?.screenedDate).toBe('2024-05-01T20:30:00.000')

    const us = await send('/import', post(fixture('netflix-us.csv'), 'text/csv'))
    expect(await us.json()).toMatchObject({ added: 0, unmatched: 3, episodes: 1, trailers: 1 })
    const imdb = await send('/import', post(fixture('imdb-ratings.csv'), 'text/csv'))
    expect(await imdb.json()).toMatchObject({
      kind: 'movies',
      added: 4,
      refused: 2,
      refusals: [
        { line: 5, issues: [{ path: 'URL' }] },
        { line: 7, issues: [{ path: 'Year' }] },
      ],
      unmatchedCsv: null,
    })
    expect(await titles(log)).toHaveLength(7)
  })

  it('asks for the day form of an ambiguous Netflix history, storing nothing until it is named', async () => {
    const { log, send } = handler()
    const file = fixture('netflix-ambiguous.csv')
    const problem = await expectProblem(await send('/import', post(file, 'text/csv')), 400)
    expect(problem.errors).toEqual([
      {
        parameter: 'dateFormat',
        detail: expect.stringMatching(/read as MM\/DD\/YY or DD\/MM\/YY.*\(try MM\/DD\/YY\)$/),
      },
    ])
    expect(await titles(log)).toEqual([])
    const named = await send(
      `/import?dateFormat=${encodeURIComponent('DD/MM/YY')}`,
      post(file, 'text/csv'),
    )
    expect(await named.json()).toMatchObject({
      unmatched: 2,
      unmatchedCsv: expect.stringContaining(',Roma,2025-01-02T00:00:00.000,'),
    })
  })

  it('refuses a file too large, of another type, of no format it reads, or empty: nothing stored', async () => {
    const { log, send } = handler({ maxImportBytes: 1024 })
    const large = await send('/import', post(letterboxdZipBytes(), 'application/zip'))
    expect((await expectProblem(large, 413)).detail).toMatch(/limit of 1024 bytes/)
    const form = await send('/import', post('a=1', 'application/x-www-form-urlencoded'))
    expect(form.headers.get('accept-post')).toContain('application/zip')
    await expectProblem(form, 415)
    const other = await send('/import', post('Film,Seen\r\nHeat,yes\r\n', 'text/csv'))
    expect((await expectProblem(other, 415)).detail).toMatch(/'Film', 'Seen'/)
    const named = await send('/import?format=letterboxd', post('Title,Date\r\n', 'text/csv'))
    expect((await expectProblem(named, 400)).errors).toEqual([
      { parameter: 'format', detail: expect.stringMatching(/not a Letterboxd diary/) },
    ])
    const unknown = await send('/import?format=vhs', post('x', 'text/csv'))
    expect((await expectProblem(unknown, 400)).errors?.[0]?.parameter).toBe('format')
    await expectProblem(await send('/import', post('', 'text/csv')), 400)
    const get = await send('/import', { method: 'GET' })
    expect(get.headers.get('allow')).toBe('POST')
    expect(await titles(log)).toEqual([])
  })

  it('tells an import’s progress as NDJSON lines, then its report', async () => {
    const { log, send } = handler()
    const header = 'watched_at,action,type,title,year,trakt_rating,trakt_id,imdb_id,tmdb_id'
    const rows = Array.from(
      { length: 300 },
      (_, n) =>
        `2024-01-01T${String(n % 24).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:00.000Z,watch,movie,Film ${n},2000,,${n + 1},tt${String(1_000_000 + n).padStart(7, '0')},`,
    )
    const response = await send(
      '/import',
      post(`${header}\r\n${rows.join('\r\n')}\r\n`, 'text/csv', {
        accept: 'application/x-ndjson',
      }),
    )
    expect(response.headers.get('content-type')).toBe('application/x-ndjson')
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const report = lines.pop()
    expect(report).toMatchObject({ report: { added: 300, skipped: 0 } })
    expect(lines.length).toBeGreaterThan(10)
    const done = lines.map((line) => line.progress.done)
    expect(done).toEqual([...done].sort((a, b) => a - b))
    expect(lines.every((line) => line.progress.total === 300)).toBe(true)
    expect(await titles(log)).toHaveLength(300)
  })
})

describe('an import whose store fails part way', () => {
  // A Map that goes away, as a store does (ECONNRESET), after `sets` writes.
  class FailingMap extends Map {
    constructor(public sets: number) {
      super()
    }
    override set(key: unknown, value: unknown) {
      if (this.sets-- <= 0) throw Object.assign(new Error('store down'), { code: 'ECONNRESET' })
      return super.set(key, value)
    }
  }

  it('ends its lines with the store’s problem; imported again, it adds only the rest', async () => {
    const map = new FailingMap(150)
    const log = createMovieLog(map)
    const errors: unknown[] = []
    const handle = toWebHandler(log, { onError: (error) => errors.push(error) })
    const rows = Array.from(
      { length: 300 },
      (_, n) =>
        `2024-01-01T00:00:00.000Z,watch,movie,Film ${n},2000,,${n + 1},tt${String(1_000_000 + n).padStart(7, '0')},`,
    )
    const file = `watched_at,action,type,title,year,trakt_rating,trakt_id,imdb_id,tmdb_id\r\n${rows.join('\r\n')}\r\n`
    const send = () =>
      handle(
        new Request(
          'http://movie-log.test/movies/import',
          post(file, 'text/csv', { accept: 'application/x-ndjson' }),
        ),
      )
    const response = await send()
    expect(response.status).toBe(200)
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines.at(-1)).toMatchObject({ error: { status: 503, reason: 'unreachable' } })
    expect(lines[0]).toHaveProperty('progress')
    expect(errors).toHaveLength(1)
    map.sets = Number.POSITIVE_INFINITY
    const stored = (await log.listMovies()).movies.length
    expect(stored).toBeGreaterThan(0)
    expect(stored).toBeLessThan(300)
    const again = await (await send()).text()
    expect(JSON.parse(again.trim().split('\n').at(-1) as string)).toMatchObject({
      report: { added: 300 - stored, skipped: stored },
    })
  })
})

describe('an import on a household server', () => {
  it('lands in the diary of the person who sent it, never in another’s', async () => {
    const logs = createMovieLogs()
    const handle = toWebHandler(logs, {
      catalog,
      owner: (request) => request.headers.get('x-person') ?? undefined,
    })
    const send = (person: string) =>
      handle(
        new Request(
          'http://movie-log.test/movies/import',
          post(fixture('trakt-history.json'), 'application/json', { 'x-person': person }),
        ),
      )
    expect(await (await send('alice')).json()).toMatchObject({ added: 2 })
    expect(await titles(logs.of('alice'))).toEqual(['Heat', 'Paris, Texas'])
    expect(await titles(logs.of('bob'))).toEqual([])
    // Bob's own import adds his, as if Alice's were not there.
    expect(await (await send('bob')).json()).toMatchObject({ added: 2, skipped: 0 })
    const anonymous = await handle(
      new Request('http://movie-log.test/movies/import', post('x', 'text/csv')),
    )
    expect(anonymous.status).toBe(401)
  })

  it('refuses an import a page of another site sends, before reading it', async () => {
    const log = createMovieLog()
    const handle = toWebHandler(log)
    const response = await handle(
      new Request(
        'http://movie-log.test/movies/import',
        post(fixture('trakt-history.json'), 'text/csv', {
          origin: 'http://evil.example',
          'sec-fetch-site': 'cross-site',
        }),
      ),
    )
    await expectProblem(response, 403)
    expect(await titles(log)).toEqual([])
  })
})

describe('importFile, the client’s', () => {
  it('sends a file, hears its progress, and gives back the report or the refusal', async () => {
    const log = createMovieLog()
    const handle = toWebHandler(log, { catalog })
    const url = 'http://movie-log.test/movies'
    const fetch = (input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init))
    const heard: [number, number | null][] = []
    const report = await importFile(url, letterboxdZipBytes(), {
      fetch,
      onProgress: (done, total) => heard.push([done, total]),
    })
    expect(report).toMatchObject({ added: 1, matched: 1, unmatched: 2 })
    expect(heard.at(-1)).toEqual([3, 3])
    const refused = await importFile(url, fixture('netflix-ambiguous.csv'), { fetch }).catch(
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(MovieLogHttpError)
    expect((refused as MovieLogHttpError).problem?.errors?.[0]?.parameter).toBe('dateFormat')
    const named = await importFile(url, fixture('netflix-ambiguous.csv'), {
      fetch,
      dateFormat: 'DD/MM/YY',
    })
    expect(named).toMatchObject({ unmatched: 2, refusals: [] })
  })
})
