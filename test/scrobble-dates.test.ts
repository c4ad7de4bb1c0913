/**
 * The watch's time as each media server writes it: impossible ones refused naming the field
 * (issue 61). Every handler here is given its zone.
 */
import { createMovieLog, type Movie } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
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
