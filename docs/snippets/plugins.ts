// #region snippet
import { createMovieLog, registerPlugin, type ScrobbleSource } from 'movie-log'
import { toWebHandler } from 'movie-log/web'

// What a script run by the player posts when a movie ends: { imdb, title, year }.
const player: ScrobbleSource = {
  name: 'player',
  read: (payload, receivedAt) => {
    const { imdb, title, year } = payload as Record<string, unknown>
    if (typeof imdb !== 'string') {
      return { kind: 'incomplete', issues: [{ path: 'imdb', message: 'is missing' }] }
    }
    const watchedAt = { instant: receivedAt }
    return {
      kind: 'watched',
      imdbId: imdb,
      title,
      releaseYear: year,
      watchedAt,
      notes: 'Scrobbled',
    }
  },
}

registerPlugin({ name: 'my-app', scrobbleSources: [player] })
// POST /movies/scrobble/player logs the movie, once per watch
export const handler = toWebHandler(createMovieLog('sqlite://./movies.sqlite'))
// #endregion snippet
