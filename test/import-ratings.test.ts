import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createMovieLog } from 'movie-log'
import { describe, expect, it } from 'vitest'
import type { Catalog } from '../src/core/catalog'
import { importFile } from '../src/formats/import-file'
import { FIXTURES } from './_import-files'
import { aMovie } from './_movies'

// Issue 58: Trakt's ratings export rates the person's latest entry of each movie (as Plex's
// media.rate does), adding none; a movie without an IMDb id is matched through the catalog.
const AMELIE = 'https://www.imdb.com/title/tt0211915/'
const HEAT = 'https://www.imdb.com/title/tt0113277/'
const catalog: Catalog = {
  async find({ title }) {
    return /^am[ée]lie$/i.test(title)
      ? [
          {
            imdbLink: AMELIE,
            title: 'Amélie',
            originalTitle: 'Amélie',
            year: 2001,
            runtimeMinutes: 122,
          },
        ]
      : []
  },
}
const once = async function* (bytes: Uint8Array) {
  yield bytes
}
const options = { name: 'ratings', maxHistoryBytes: 2 ** 20, catalog: async () => catalog }

describe('Trakt’s ratings, imported', () => {
  it('rates the latest entry of each movie, matches one without an IMDb id, and adds nothing', async () => {
    const log = createMovieLog()
    const older = await log.addMovie(
      aMovie({ imdbLink: HEAT, screenedDate: '2020-01-01T20:00:00.000' }),
    )
    const latest = await log.addMovie(
      aMovie({ imdbLink: HEAT, screenedDate: '2024-05-01T20:00:00.000', rating: 6 }),
    )
    const amelie = await log.addMovie(
      aMovie({ title: 'Amélie', releaseYear: 2001, imdbLink: AMELIE }),
    )
    const items = JSON.parse(readFileSync(join(FIXTURES, 'trakt-ratings.json'), 'utf8'))
    // As an export tool writes a movie Trakt knows no IMDb id of.
    items.push({
      rated_at: '2024-06-11T08:00:00.000Z',
      rating: 8,
      type: 'movie',
      movie: { title: 'Amelie', year: 2001, ids: { trakt: 2200, slug: 'amelie-2001', imdb: null } },
    })
    const bytes = new TextEncoder().encode(JSON.stringify(items))
    const progress: number[] = []
    const report = await importFile(log, once(bytes), {
      ...options,
      onProgress: (done) => progress.push(done),
    })
    expect(report).toMatchObject({
      kind: 'ratings',
      added: 0,
      rated: 2,
      matched: 1,
      notInDiary: 2, // Alien and Dune: Part Two were never logged
      episodes: 2,
      refused: [],
    })
    expect(progress.at(-1)).toBe(6)
    expect((await log.getMovie(latest.id))?.rating).toBe(10)
    expect((await log.getMovie(older.id))?.rating).toBeUndefined()
    expect((await log.getMovie(amelie.id))?.rating).toBe(8)
    expect((await log.listMovies()).movies).toHaveLength(3)
    const again = await importFile(log, once(bytes), options)
    expect(again).toMatchObject({ rated: 0, skipped: 2, notInDiary: 2 })
  })

  it('refuses a rating out of range by its line, rating the rest', async () => {
    const log = createMovieLog()
    await log.addMovie(aMovie({ imdbLink: HEAT }))
    const csv = readFileSync(join(FIXTURES, 'trakt-ratings.csv'), 'utf8').replace(
      'Heat,1995,10,',
      'Heat,1995,11,',
    )
    const report = await importFile(log, once(new TextEncoder().encode(csv)), options)
    expect(report.refused).toEqual([
      {
        line: 2,
        status: 'refused',
        issues: [{ path: 'rating', message: 'must be a whole number 1 to 10' }],
      },
    ])
    expect(report).toMatchObject({ rated: 0, notInDiary: 2 })
  })
})
