import { copyFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createMovieLog, type Movie, versionOf } from 'movie-log'
import { expect, it } from 'vitest'
import { toWebHandler } from '../adapters/web'
import { tempFolders } from './_temp'

// test/fixtures/before-ratings: a SQLite diary written by movie-log at e45d507, before ratings
// and tags (its source run as it was, `git archive e45d507 src`), with each movie's JSON text and
// version tag as that version answered them. Opened by today's code, every movie reads back as
// the same text with the same tag, and the new fields work beside the old movies.
const FIXTURE = join(import.meta.dirname, 'fixtures', 'before-ratings')
const kept: { movie: string; version: string }[] = JSON.parse(
  readFileSync(join(FIXTURE, 'diary.json'), 'utf8'),
)
const tempFolder = tempFolders()

function openCopy() {
  const folder = tempFolder('movie-log-before-ratings-')
  copyFileSync(join(FIXTURE, 'diary.sqlite'), join(folder, 'diary.sqlite'))
  return createMovieLog(`sqlite://${join(folder, 'diary.sqlite')}`, { namespace: 'before-ratings' })
}

it('reads a diary written before ratings and tags with every text and version tag unchanged', async () => {
  const log = openCopy()
  const { movies } = await log.listMovies()
  expect(movies.map((movie) => JSON.stringify(movie))).toEqual(kept.map((each) => each.movie))
  expect(movies.map(versionOf)).toEqual(kept.map((each) => each.version))
  // Over HTTP, as a client holding an old ETag sees it.
  const handler = toWebHandler(log)
  for (const { movie, version } of kept) {
    const { id } = JSON.parse(movie) as Movie
    const response = await handler(new Request(`http://localhost/movies/${id}`))
    expect(response.headers.get('etag')).toBe(`"${version}"`)
    expect(await response.text()).toBe(movie)
  }
  await log.close()
})

it('rates, tags and filters the movies of such a diary, and searches it as before', async () => {
  const log = openCopy()
  const [first, second] = (await log.listMovies()).movies as [Movie, Movie]
  const rated = await log.updateMovie(
    first.id,
    { rating: 8, tags: ['Festival'] },
    {
      ifMatch: kept[0]?.version,
    },
  )
  expect(versionOf(rated)).not.toBe(kept[0]?.version)
  expect((await log.listMovies({ tag: 'festival' })).movies).toEqual([rated])
  expect((await log.listMovies({ q: 'heat', tag: 'festival' })).movies).toEqual([])
  expect((await log.listMovies({ q: 'heat 1' })).movies.map((m) => m.id)).toContain(second.id)
  const stats = await log.stats()
  expect(stats.byRating[7]).toBe(1)
  expect(stats.tags).toEqual([{ tag: 'Festival', count: 1 }])
  // Back to no rating and no tags: the very text and tag it had.
  const cleared = await log.updateMovie(first.id, { rating: null, tags: null })
  expect(JSON.stringify(cleared)).toBe(kept[0]?.movie)
  expect(versionOf(cleared)).toBe(kept[0]?.version)
  await log.close()
})
