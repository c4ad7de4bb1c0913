/**
 * The client (`movie-log/client`) as an app in each runtime uses it, against that runtime's
 * server: adds, lists, gets, and the errors it raises. What it saw is returned as JSON for the
 * test to compare.
 */
import { createMovieLogClient, type MovieLogClientOptions } from 'movie-log/client'

const HEAT = {
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
}
// A UUIDv7 no log made.
const UNKNOWN_ID = '01a218e9-0000-7000-8000-000000000000'

export async function checkClient(url: string, options: MovieLogClientOptions = {}) {
  // A diary of its own on the test app (runtime-tests/app.ts).
  const headers = { 'x-test-owner': crypto.randomUUID() }
  const log = createMovieLogClient(url, { ...options, headers, retries: 0 })
  const added = await log.addMovie(HEAT)
  const { movies } = await log.listMovies()
  const got = await log.getMovie(added.id)
  const invalid = await log.addMovie({ ...HEAT, title: '', releaseYear: 1800 }).catch(named)
  const changed = await log.updateMovie(UNKNOWN_ID, { notes: 'x' }).catch(named)
  return {
    added: added.title,
    listed: movies.map((movie) => movie.id).join() === added.id,
    got: JSON.stringify(got) === JSON.stringify(added),
    unknown: (await log.getMovie(UNKNOWN_ID)) === undefined,
    invalid,
    changed,
  }
}

/** An error as `{ name, fields }`, the fields it names (a validation error's issues). */
function named(error: { name: string; issues?: { path: string }[] }) {
  return { name: error.name, fields: error.issues?.map((issue) => issue.path) ?? [] }
}
