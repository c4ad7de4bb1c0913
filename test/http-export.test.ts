import { parse } from 'csv-parse/sync'
import { createMovieLog, type Movie, type MovieLog } from 'movie-log'
import { afterEach, describe, expect, it } from 'vitest'
import { FlakyMap } from './_flaky-map'
import { HTTP_TARGETS, type HttpTarget, type HttpTargetFactory } from './_http-targets'
import { aMovie } from './_movies'

const NDJSON = 'application/x-ndjson'
const CSV = 'text/csv'

describe.each(HTTP_TARGETS)('HTTP export: %s', (_name, createTarget: HttpTargetFactory) => {
  let target: HttpTarget | undefined
  afterEach(() => target?.close())

  async function serve(log: MovieLog = createMovieLog()) {
    target = await createTarget(log)
    return { log, http: target }
  }

  async function addMany(log: MovieLog, count: number): Promise<Movie[]> {
    const movies: Movie[] = []
    for (let n = 0; n < count; n++) movies.push(await log.addMovie(aMovie({ title: `M${n}` })))
    return movies
  }

  it('streams every movie as NDJSON across pages, limit and cursor not applying', async () => {
    const { log, http } = await serve()
    const movies = await addMany(log, 2100) // three pages of the stream
    const response = await http.fetch('/movies?limit=5', { headers: { accept: NDJSON } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(NDJSON)
    expect(response.headers.get('link')).toBeNull()
    const lines = (await response.text()).split('\n')
    expect(lines.pop()).toBe('')
    expect(lines.map((line) => JSON.parse(line))).toEqual(movies)
  })

  it('answers text/csv with the contract CSV: CRLF, header, quoting, formula cells guarded', async () => {
    const { log, http } = await serve()
    const risky = await log.addMovie(
      aMovie({ title: '=HYPERLINK("http://evil")', notes: '+1, "quoted"\nsecond line' }),
    )
    const plain = await log.addMovie(aMovie({ title: "'=already guarded", notes: '-' }))
    const response = await http.fetch('/movies', { headers: { accept: CSV } })
    expect(response.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/)
    const text = await response.text()
    expect(
      text.startsWith('id,title,screenedDate,releaseYear,imdbLink,notes,rating,tags\r\n'),
    ).toBe(true)
    expect(text.charCodeAt(0)).not.toBe(0xfeff)
    expect(text.endsWith('\r\n')).toBe(true)
    const rows = parse(text, { columns: true }) as Record<string, string>[]
    expect(rows).toEqual([
      {
        ...risky,
        releaseYear: '1995',
        title: `'${risky.title}`,
        notes: `'${risky.notes}`,
        rating: '',
        tags: '',
      },
      {
        ...plain,
        releaseYear: '1995',
        title: `''=already guarded`,
        notes: "'-",
        rating: '',
        tags: '',
      },
    ])
  })

  it.each([
    ['application/json, text/csv', 'application/json'],
    ['text/csv, application/x-ndjson;q=0.9', 'text/csv; charset=utf-8; header=present'],
    ['text/csv;q=0.5, application/x-ndjson', NDJSON],
    ['*/*', 'application/json'],
    ['*/*;q=0.1, text/csv', 'text/csv; charset=utf-8; header=present'],
    ['text/*, image/png, application/json;q=0.2', 'application/json'],
    ['application/x-ndjson, */*;q=0.1', NDJSON],
  ])('negotiates Accept %s as %s (JSON wins ties)', async (accept, type) => {
    const { http } = await serve()
    const response = await http.fetch('/movies', { headers: { accept } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(type)
    await response.arrayBuffer()
  })

  it('applies sort, from and to, and refuses a bad one naming it', async () => {
    const { log, http } = await serve()
    const at = (screenedDate: string) => log.addMovie(aMovie({ screenedDate }))
    const [early, late, outside] = [
      await at('2024-01-05T10:00:00.000'),
      await at('2024-06-30T23:59:59.999'),
      await at('2023-12-31T23:59:59.999'),
    ]
    const query = '/movies?sort=-screenedDate&from=2024&to=2024-06&limit=1'
    const response = await http.fetch(query, { headers: { accept: NDJSON } })
    const lines = (await response.text()).trim().split('\n')
    expect(lines.map((line) => JSON.parse(line))).toEqual([late, early])
    expect(outside.id).toBeDefined()
    const bad = await http.fetch('/movies?from=yesterday', { headers: { accept: CSV } })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toContain('from')
  })

  // Issue 55 item 7: q was ignored by the export, which sent every movie.
  it('applies q as the list does, in both formats, and refuses a bad q naming it', async () => {
    const { log, http } = await serve()
    await log.addMovie(aMovie({ title: 'Alien' }))
    await addMany(log, 3)
    await log.addMovie(aMovie({ title: 'Heat' }))
    await log.addMovie(aMovie({ title: 'Other', notes: 'not Heat but near it' }))
    const listed = await (await http.fetch('/movies?q=heat')).json()
    expect(listed.map((movie: Movie) => movie.title)).toEqual(['Heat', 'Other'])
    const ndjson = await http.fetch('/movies?q=heat', { headers: { accept: NDJSON } })
    expect(ndjson.status).toBe(200)
    const lines = (await ndjson.text()).trim().split('\n')
    expect(lines.map((line) => JSON.parse(line))).toEqual(listed)
    const csv = await http.fetch('/movies?q=heat', { headers: { accept: CSV } })
    const rows = parse(await csv.text(), { columns: true }) as Record<string, string>[]
    expect(rows.map((row) => row.id)).toEqual(listed.map((movie: Movie) => movie.id))
    const bad = await http.fetch(`/movies?q=${'x'.repeat(2000)}`, { headers: { accept: NDJSON } })
    expect(bad.status).toBe(400)
    expect((await bad.json()).errors).toEqual([expect.objectContaining({ parameter: 'q' })])
  })

  it('answers an empty log with an empty NDJSON body and a CSV header only', async () => {
    const { http } = await serve()
    const ndjson = await http.fetch('/movies', { headers: { accept: NDJSON } })
    expect(await ndjson.text()).toBe('')
    const csv = await http.fetch('/movies', { headers: { accept: CSV } })
    expect(await csv.text()).toBe(
      'id,title,screenedDate,releaseYear,imdbLink,notes,rating,tags\r\n',
    )
  })

  it('answers 503 when the store is down before the export starts', async () => {
    const { http } = await serve(createMovieLog(new FlakyMap()))
    const response = await http.fetch('/movies', { headers: { accept: NDJSON } })
    expect(response.status).toBe(503)
    await response.arrayBuffer()
  })
})
