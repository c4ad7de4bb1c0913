/**
 * One watch per window, for sources that may report one play twice at different times (Kodi's
 * `end`, then `stop`): the first report within the window logs the movie, the others get it.
 * Held across processes by a record made create-if-absent (src/core/records.ts).
 */
import type { Movie } from '../core/movie'
import type { MovieLog } from '../core/movie-log'
import { recordsOf } from '../core/records'

/**
 * Runs `add` unless `key` was claimed within `windowMs`: then the movie that claim logged
 * (`replayed`), or `undefined` while the first report is still being logged.
 *
 * @example
 * ```ts
 * const once = await oncePerWindow(log, 'scrobble:window:kodi:tt0113277', 3_600_000, add)
 * ```
 */
export async function oncePerWindow(
  log: MovieLog,
  key: string,
  windowMs: number,
  add: () => Promise<Movie>,
): Promise<{ movie: Movie; replayed: boolean } | undefined> {
  const records = recordsOf(log)
  if (!(await records.create(key, '', windowMs))) {
    const id = await records.read(key)
    const movie = id ? await log.getMovie(id) : undefined
    return movie && { movie, replayed: true }
  }
  try {
    const movie = await add()
    await records.write(key, movie.id, windowMs)
    return { movie, replayed: false }
  } catch (error) {
    // Not logged: the window is let go, so the next report may log it.
    await records.write(key, '', 1)
    throw error
  }
}
