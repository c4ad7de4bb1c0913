import { createMovieLog, type LogChange, type Movie } from 'movie-log'
import { createMovieLogClient } from 'movie-log/client'

const log = createMovieLog()
declare const signal: AbortSignal
declare const url: string
declare const headers: Record<string, string>
declare let lastSeen: string | undefined
declare let movies: Movie[]
declare function render(change: LogChange): void

// #region snippet
// In code: the same changes, as an async iterable (`break` or the signal ends it).
for await (const change of log.watch({ after: lastSeen, signal })) {
  if (change.type === 'reset') movies = (await log.listMovies()).movies
  else lastSeen = change.id // change.type: 'added' | 'updated' | 'deleted', change.movie
}

// Over HTTP: createMovieLogClient(url).watch(...) reads the feed with fetch (so it sends the
// client's headers, a token included), reconnects with backoff and resumes from the last id.
for await (const change of createMovieLogClient(url, { headers }).watch({ signal })) render(change)
// #endregion snippet
console.log(movies)
