/**
 * The watch's time as each media server writes it: impossible ones refused naming the field
 * (issue 61), and real ones written in the zone the handler is given, in winter and across the
 * changes of daylight saving time (issue 55). Every handler here is given its zone, and CI runs
 * this file again under TZ=Pacific/Auckland (.ci/node-lines.ts): none may lean on the process's.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createMovieLog, type Movie } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { LINE_SUITES, SUITE_TIME_ZONE } from '../.ci/node-lines'
import { createResponseChecker } from './_openapi'
import { type Delivery, finishedAt, requestInit } from './_scrobble'

// Every answer here is held to the OpenAPI document.
const checkResponse = createResponseChecker()

function serving(timeZone: string) {
  const log = createMovieLog()
  const web = toWebHandler(log, { timeZone })
  const send = async (source: string, delivery: Delivery) => {
    const url = new URL(`http://localhost/movies/scrobble/${source}`)
    const response = await web(new Request(url, requestInit(delivery)))
    await checkResponse('POST', url, response.clone())
    return response
  }
  return { log, send }
}

describe('an impossible watch time', () => {
  it.each([
    // Seconds past the year 9999: no date at all (a 500 with a stack in the log before).
    ['plex', 'Metadata.lastViewedAt', 10_000_000_000_000],
    ['plex', 'Metadata.lastViewedAt', -62_200_000_000],
    // JavaScript's parser rolls 30 February over into 1 March.
    ['jellyfin', 'UtcTimestamp', '2024-02-30T10:00:00.0000000Z'],
    ['emby', 'Date', '2024-02-30T10:00:00.0000000Z'],
    ['generic', 'watchedAt', '2024-02-30T10:00:00Z'],
    // Year 0 was written as 0001.
    ['jellyfin', 'UtcTimestamp', '0000-06-01T18:30:00.0000000Z'],
    ['emby', 'Date', '0000-06-01T18:30:00.0000000Z'],
    ['generic', 'watchedAt', '0000-06-01T18:30:00Z'],
    ['emby', 'Date', '2024-06-01T24:00:00.0000000Z'],
    ['generic', 'watchedAt', '2023-02-29T21:30:00.000'],
  ])('from %s is a 400 naming %s, nothing stored', async (source, field, time) => {
    const { log, send } = serving('Europe/Paris')
    const response = await send(source, finishedAt(source, time))
    expect(response.status).toBe(400)
    const problem = (await response.json()) as { detail: string; errors: unknown }
    expect(problem.detail).toContain(`'${field}' is not a real time`)
    expect(problem.detail).toContain(JSON.stringify(time))
    expect(problem.errors).toEqual([
      {
        pointer: `/${field.replace('.', '/')}`,
        detail: expect.stringContaining('not a real time'),
      },
    ])
    expect((await log.listMovies()).movies).toEqual([])
  })

  it.each([
    ['plex', '0001-01-02T00:00:00Z', '0001-01-02T00:09:21.000'],
    ['emby', '9999-12-30T20:00:00.0000000Z', '9999-12-30T21:00:00.000'],
    ['generic', '2024-02-29T20:30:00Z', '2024-02-29T21:30:00.000'],
  ])('from %s at the edges of the real ones is logged', async (source, time, local) => {
    const { send } = serving('Europe/Paris')
    const response = await send(source, finishedAt(source, time))
    expect(response.status).toBe(201)
    expect(((await response.json()) as Movie).screenedDate).toBe(local)
  })
})

describe('the watch in the handler’s zone, whatever the process’s', () => {
  it.each([
    // Winter: Paris is UTC+1, Auckland UTC+13 (its summer), New York UTC-5.
    ['Europe/Paris', '2024-01-15T20:30:00Z', '2024-01-15T21:30:00.000'],
    ['Pacific/Auckland', '2024-01-15T20:30:00Z', '2024-01-16T09:30:00.000'],
    ['America/New_York', '2024-01-15T20:30:00Z', '2024-01-15T15:30:00.000'],
    // Paris springs forward at 01:00 UTC on 31 March 2024: 02:00 becomes 03:00.
    ['Europe/Paris', '2024-03-31T00:30:00Z', '2024-03-31T01:30:00.000'],
    ['Europe/Paris', '2024-03-31T01:30:00Z', '2024-03-31T03:30:00.000'],
    // Auckland falls back at 14:00 UTC on 6 April 2024: 03:00 becomes 02:00 again.
    ['Pacific/Auckland', '2024-04-06T13:30:00Z', '2024-04-07T02:30:00.000'],
    ['Pacific/Auckland', '2024-04-06T14:30:00Z', '2024-04-07T02:30:00.000'],
  ])('in %s, %s is %s from every source', async (zone, instant, local) => {
    const { send } = serving(zone)
    for (const source of ['plex', 'jellyfin', 'emby', 'generic']) {
      const response = await send(source, finishedAt(source, instant))
      expect(response.status, source).toBe(201)
      expect(((await response.json()) as Movie).screenedDate, source).toBe(local)
    }
  })

  it('logs both watches of the hour a fall back repeats, one local time twice', async () => {
    const { log, send } = serving('Europe/Paris')
    // 00:30 and 01:30 UTC on 27 October 2024 are both 02:30 in Paris (CEST, then CET).
    for (const instant of ['2024-10-27T00:30:00Z', '2024-10-27T01:30:00Z']) {
      expect((await send('plex', finishedAt('plex', instant))).status).toBe(201)
    }
    const movies = (await log.listMovies()).movies
    expect(movies.map((movie) => movie.screenedDate)).toEqual([
      '2024-10-27T02:30:00.000',
      '2024-10-27T02:30:00.000',
    ])
  })
})

describe('no scrobble test leans on the process’s zone', () => {
  // A test that left the zone to the process would pass in CI's UTC by chance: every file that
  // sends scrobbles runs again in a zone whose offset is far from it, summer and winter.
  it('runs every file that sends scrobbles again in CI, in a zone hours from UTC', () => {
    const folder = new URL('./', import.meta.url)
    const sending = readdirSync(folder)
      .filter((name) => name.endsWith('.test.ts'))
      .filter((name) => readFileSync(new URL(name, folder), 'utf8').includes("from './_scrobble'"))
      .map((name) => `test/${name}`)
    expect(sending).toContain('test/scrobble.test.ts')
    expect(sending.filter((file) => !LINE_SUITES.includes(file))).toEqual([])
    const offset = (instant: string) =>
      new Intl.DateTimeFormat('en', { timeZone: SUITE_TIME_ZONE, timeZoneName: 'shortOffset' })
        .formatToParts(Date.parse(instant))
        .find((part) => part.type === 'timeZoneName')?.value
    expect([offset('2024-01-15T00:00:00Z'), offset('2024-07-15T00:00:00Z')]).toEqual([
      'GMT+13',
      'GMT+12',
    ])
  })
})
