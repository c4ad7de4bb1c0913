import { join } from 'node:path'
import ICAL from 'ical.js'
import { type ClosableMovieLog, createMovieLog, type Movie } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import Parser from 'rss-parser'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { createResponseChecker } from './_openapi'
import { tempFolders } from './_temp'

// A share link's feeds (issue 60), read by parsers from npm, not by code of ours: rss-parser for
// the RSS with Letterboxd's elements, ical.js for the calendar. On memory and on SQLite.
const folder = tempFolders()
const ZONE = 'America/New_York'
const LETTERBOXD = [
  'letterboxd:watchedDate',
  'letterboxd:rewatch',
  'letterboxd:filmTitle',
  'letterboxd:filmYear',
  'letterboxd:memberRating',
] as const
type RssItem = Parser.Item &
  Partial<Record<(typeof LETTERBOXD)[number], string>> & { guid?: string }
const rss = new Parser<object, RssItem>({ customFields: { item: [...LETTERBOXD] } })

const STORES = {
  memory: () => 'memory://',
  SQLite: () => `sqlite://${join(folder('movie-log-feeds-'), 'movies.sqlite')}`,
}

describe.each(Object.entries(STORES))('a share link’s feeds on %s', (_, storeUrl) => {
  let log: ClosableMovieLog
  afterEach(() => log?.close())

  async function shared(movies: Record<string, unknown>[], options = {}) {
    log = createMovieLog(storeUrl())
    const added: Movie[] = []
    for (const movie of movies) added.push(await log.addMovie(aMovie(movie)))
    const { token } = await log.share(options)
    const handle = toWebHandler(log, { timeZone: ZONE })
    const get = (part: string, headers: Record<string, string> = {}) =>
      handle(new Request(`http://diary.test/movies/s/${token}${part && `/${part}`}`, { headers }))
    const text = async (part: string) => {
      const response = await get(part)
      expect(response.status).toBe(200)
      return response.text()
    }
    return { added, get, text }
  }

  it('writes RSS 2.0 with Letterboxd’s elements: the latest 100, ratings halved, rewatches, stable guids', async () => {
    const film = (n: number) =>
      `https://www.imdb.com/title/tt${String(1000000 + (n % 60)).padStart(7, '0')}/`
    // 105 screenings of 60 films, one a day: the 45 films seen twice are rewatched the second time.
    const movies = Array.from({ length: 105 }, (_, n) => ({
      title: `Film ${n % 60} & <friends>`,
      releaseYear: 1950 + (n % 60),
      imdbLink: film(n),
      screenedDate: new Date(Date.UTC(2024, 0, 1 + n, 20, 30)).toISOString().slice(0, 23),
      notes: `note ${n}`,
      ...(n % 10 === 0 ? {} : { rating: (n % 10) + 0 }),
    }))
    const { added, text } = await shared(movies)
    const feed = await rss.parseString(await text('rss'))
    expect(feed.items).toHaveLength(100)
    // Latest first: the 105th screening, then back to the 6th.
    const latest = added.at(-1) as Movie
    const [first] = feed.items as [RssItem]
    expect(first.guid).toBe(`movie-log-${latest.id}`)
    expect(first['letterboxd:filmTitle']).toBe('Film 44 & <friends>')
    expect(first['letterboxd:filmYear']).toBe('1994')
    expect(first['letterboxd:watchedDate']).toBe('2024-04-14')
    expect(first['letterboxd:memberRating']).toBe('2.0') // 4 of 10
    expect(first.title).toBe('Film 44 & <friends>, 1994 - ★★')
    expect(first.link).toBe(latest.imdbLink)
    // 20:30 in New York on 14 April 2024 (daylight time, UTC-4) is 00:30 the next day in UTC.
    expect(first.isoDate).toBe('2024-04-15T00:30:00.000Z')
    const byGuid = new Map(feed.items.map((item) => [item.guid, item]))
    for (const [n, movie] of added.entries()) {
      const item = byGuid.get(`movie-log-${movie.id}`)
      if (n < 5) {
        expect(item).toBeUndefined() // past the latest 100
        continue
      }
      expect(item?.['letterboxd:rewatch']).toBe(n >= 60 ? 'Yes' : 'No')
      // Letterboxd's 0.5 to 5.0, one decimal; no element for an unrated screening.
      const rating = movies[n]?.rating
      expect(item?.['letterboxd:memberRating']).toBe(rating ? (rating / 2).toFixed(1) : undefined)
      // Notes are not shown: the link did not share them.
      expect(item?.content).not.toContain('note')
    }
    // The same guids on the next fetch.
    const again = await rss.parseString(await text('rss'))
    expect(again.items.map((item) => item.guid)).toEqual(feed.items.map((item) => item.guid))
  })

  it('counts a rewatch whose first screening is past the feed’s window', async () => {
    const heat = { imdbLink: 'https://www.imdb.com/title/tt0113277/' }
    // Heat first, then 1,000 other screenings, then Heat again: the window (1,000) has Heat once.
    const others = Array.from({ length: 1000 }, (_, n) => ({
      title: `Other ${n}`,
      imdbLink: `https://www.imdb.com/title/tt${2000000 + n}/`,
      screenedDate: `2024-03-01T${String(Math.floor(n / 60) % 24).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:00.000`,
    }))
    const { text } = await shared([
      { ...heat, screenedDate: '2023-01-01T20:00:00.000' },
      ...others,
      { ...heat, screenedDate: '2024-12-24T20:00:00.000' },
    ])
    const [first] = (await rss.parseString(await text('rss'))).items as [RssItem]
    expect(first['letterboxd:filmTitle']).toBe('Heat')
    expect(first['letterboxd:rewatch']).toBe('Yes')
  }, 120_000)

  it('writes iCalendar: events at local time with the zone’s VTIMEZONE, stable UIDs, SEQUENCE up on an edit, a deletion gone', async () => {
    const long = 'A very long title, with commas; semicolons \\ and a backslash'.repeat(6)
    const { added, text } = await shared([
      { title: 'Heat', screenedDate: '2024-07-04T20:00:00.000' },
      { title: 'Alien', screenedDate: '2024-01-15T21:15:30.000', notes: 'hidden notes' },
      { title: long.slice(0, 300), screenedDate: '2023-11-05T01:30:00.000' },
    ])
    const [heat, alien, third] = added as [Movie, Movie, Movie]
    const read = async () => {
      const raw = await text('ics')
      const calendar = new ICAL.Component(ICAL.parse(raw))
      return {
        raw,
        calendar,
        events: calendar.getAllSubcomponents('vevent').map((each) => new ICAL.Event(each)),
      }
    }
    const first = await read()
    // Lines of at most 75 octets, CRLF: RFC 5545's folding, undone by the parser.
    for (const line of first.raw.split('\r\n'))
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75)
    const zone = first.calendar.getFirstSubcomponent('vtimezone')
    expect(zone?.getFirstPropertyValue('tzid')).toBe(ZONE)
    ICAL.TimezoneService.register(zone as ICAL.Component)
    const byUid = (events: ICAL.Event[]) => new Map(events.map((event) => [event.uid, event]))
    const events = byUid(first.events)
    expect([...events.keys()].sort()).toEqual(
      [heat, alien, third].map((movie) => `${movie.id}@movie-log`).sort(),
    )
    const heatEvent = events.get(`${heat.id}@movie-log`) as ICAL.Event
    expect(heatEvent.summary).toBe('Heat (1995)')
    expect(heatEvent.startDate.zone?.tzid).toBe(ZONE)
    expect(heatEvent.startDate.toString()).toBe('2024-07-04T20:00:00')
    // The zone's rules turn it into the instant: New York in July is UTC-4, in January UTC-5.
    expect(heatEvent.startDate.toJSDate().toISOString()).toBe('2024-07-05T00:00:00.000Z')
    const alienEvent = events.get(`${alien.id}@movie-log`) as ICAL.Event
    expect(alienEvent.startDate.toJSDate().toISOString()).toBe('2024-01-16T02:15:30.000Z')
    expect(alienEvent.description).toBeNull() // notes not shared
    // Escaped and folded, read back whole.
    expect(events.get(`${third.id}@movie-log`)?.summary).toBe(`${long.slice(0, 300).trim()} (1995)`)
    expect(first.events.map((event) => event.sequence)).toEqual([0, 0, 0])

    // The same UIDs and sequences on the next fetch; then Heat edited, Alien's hidden notes
    // edited (nothing shown changed), the third deleted.
    expect([...byUid((await read()).events).keys()]).toEqual([...events.keys()])
    await log.updateMovie(heat.id, { title: 'Heat (director’s cut)' })
    await log.updateMovie(alien.id, { notes: 'other hidden notes' })
    await log.deleteMovie(third.id)
    const after = byUid((await read()).events)
    expect([...after.keys()].sort()).toEqual(
      [`${heat.id}@movie-log`, `${alien.id}@movie-log`].sort(),
    )
    expect(after.get(`${heat.id}@movie-log`)?.sequence).toBe(1)
    expect(after.get(`${heat.id}@movie-log`)?.summary).toBe('Heat (director’s cut) (1995)')
    expect(after.get(`${alien.id}@movie-log`)?.sequence).toBe(0)
    await log.updateMovie(heat.id, { screenedDate: '2024-07-04T21:00:00.000' })
    expect(byUid((await read()).events).get(`${heat.id}@movie-log`)?.sequence).toBe(2)
  })

  it('answers 304 to If-None-Match and to If-Modified-Since, until the feed changes', async () => {
    const { added, get } = await shared([{ title: 'Heat' }])
    for (const part of ['rss', 'ics', 'movies', '']) {
      const first = await get(part)
      expect(first.status).toBe(200)
      // The page's safety headers on every answer of the link, and robots kept out.
      expect(first.headers.get('content-security-policy')).toContain("default-src 'none'")
      expect(first.headers.get('x-content-type-options')).toBe('nosniff')
      expect(first.headers.get('referrer-policy')).toBe('no-referrer')
      expect(first.headers.get('x-robots-tag')).toBe('noindex')
      const etag = first.headers.get('etag') as string
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
      const unchanged = await get(part, { 'if-none-match': etag })
      expect(unchanged.status).toBe(304)
      expect(await unchanged.text()).toBe('')
      expect(unchanged.headers.get('etag')).toBe(etag)
      if (part === 'rss' || part === 'ics') {
        const since = first.headers.get('last-modified') as string
        expect((await get(part, { 'if-modified-since': since })).status).toBe(304)
      }
    }
    const etags = await Promise.all(
      ['rss', 'ics', 'movies'].map(async (part) => (await get(part)).headers.get('etag')),
    )
    await log.updateMovie((added[0] as Movie).id, { title: 'Heat 2' })
    for (const [n, part] of ['rss', 'ics', 'movies'].entries()) {
      const changed = await get(part, { 'if-none-match': etags[n] as string })
      expect(changed.status).toBe(200)
    }
  })

  it('answers as the OpenAPI document says, the owner’s /share included', async () => {
    await shared([{ title: 'Heat', rating: 8, tags: ['crime'] }])
    const check = createResponseChecker('/movies')
    const handle = toWebHandler(log, { timeZone: ZONE })
    const ask = async (path: string, init: RequestInit = {}) => {
      const url = new URL(`http://diary.test/movies${path}`)
      const response = await handle(new Request(url, init))
      await check(init.method ?? 'GET', url, response.clone())
      return response
    }
    const token = (await log.shared())?.token
    for (const part of ['', '/movies', '/movies?limit=1&sort=-screenedDate', '/rss', '/ics']) {
      expect((await ask(`/s/${token}${part}`)).status, part).toBe(200)
    }
    expect((await ask('/share')).status).toBe(200)
    const made = await ask('/share', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"notes":true}',
    })
    expect(made.status).toBe(200)
    const refused = await ask('/share', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"notes":"yes","public":true}',
    })
    expect(
      (await refused.json()).errors.map((error: { pointer: string }) => error.pointer),
    ).toEqual(['/notes', '/public'])
    expect((await ask(`/s/${'A'.repeat(32)}/rss`)).status).toBe(404)
    expect((await ask('/share', { method: 'DELETE' })).status).toBe(204)
    expect((await ask('/share')).status).toBe(404)
  })

  it('names its URLs under the base path, whatever path the host passed (Express strips its mount)', async () => {
    await shared([{ title: 'Heat' }, { title: 'Alien' }])
    const token = (await log.shared())?.token
    const handle = toWebHandler(log, { timeZone: ZONE })
    const at = `http://diary.test/movies/s/${token}`
    for (const path of [`/movies/s/${token}`, `/s/${token}`]) {
      const pointer = await handle(new Request(`http://diary.test${path}`))
      expect(await pointer.json()).toEqual({
        movies: `${at}/movies`,
        rss: `${at}/rss`,
        ics: `${at}/ics`,
      })
      const page = await handle(new Request(`http://diary.test${path}/movies?limit=1`))
      expect(page.headers.get('link')).toMatch(
        new RegExp(`^<${at}/movies\\?limit=1&cursor=[^>]+>; rel="next"$`),
      )
    }
  })

  it('shows the notes in both feeds when the owner shares them', async () => {
    const { text } = await shared([{ title: 'Heat', notes: 'Seen twice; a, b' }], { notes: true })
    const [item] = (await rss.parseString(await text('rss'))).items
    expect(item?.content).toContain('Seen twice; a, b')
    const calendar = new ICAL.Component(ICAL.parse(await text('ics')))
    expect(
      new ICAL.Event(calendar.getFirstSubcomponent('vevent') as ICAL.Component).description,
    ).toBe('Seen twice; a, b')
  })
})
