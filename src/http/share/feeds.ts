/**
 * A share link's feeds, read from the latest screenings: RSS (./rss.ts) and iCalendar (./ics.ts),
 * each entry's revision from the owner's records (./revisions.ts), the notes shown only when
 * shared, and which screenings are rewatches.
 */
import type { Movie } from '../../core/movie'
import type { MovieLog } from '../../core/movie-log'
import { recordsOf } from '../../core/records'
import type { ShareLink } from '../../core/share'
import type { Reply } from '../reply'
import { icsOf } from './ics'
import { revisionsOf } from './revisions'
import { RSS_ITEMS, rssOf } from './rss'

/** The screenings the calendar holds (the RSS feed, the first `RSS_ITEMS` of them). */
export const FEED_WINDOW = 1000

/** The feed of `kind`; `where`, the link's address and the feed's own. */
export async function feedReply(
  log: MovieLog,
  link: ShareLink,
  kind: 'rss' | 'ics',
  where: { link: string; self: string },
  timeZone: string | undefined,
): Promise<Reply> {
  const page = await log.listMovies({ sort: '-screenedDate', limit: FEED_WINDOW })
  // What the feeds show of each: the notes as an empty string when they are not shared.
  const entries = page.movies.map((movie) => (link.notes ? movie : { ...movie, notes: '' }))
  const revisions = await revisionsOf(recordsOf(log), entries, Date.now())
  const headers = { 'last-modified': new Date(revisions.changedAt).toUTCString() }
  if (kind === 'ics') {
    const zone = timeZone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone
    const body = icsOf({ entries, revisions, timeZone: zone })
    return {
      status: 200,
      headers: { ...headers, 'content-type': 'text/calendar; charset=utf-8' },
      body,
    }
  }
  const rewatch = await rewatchesOf(log, entries, page.nextCursor === null)
  const body = rssOf({ entries, rewatch, revisions, ...where, timeZone })
  return {
    status: 200,
    headers: { ...headers, 'content-type': 'application/rss+xml; charset=utf-8' },
    body,
  }
}

/**
 * Whether each of the latest `RSS_ITEMS` screenings is of a film screened before it: an older
 * screening of the same `imdbLink` in the window read, or, when the window is not the whole
 * diary (`complete` false), more screenings of the film in all (the diary's counts) than in it.
 */
async function rewatchesOf(
  log: MovieLog,
  entries: readonly Movie[],
  complete: boolean,
): Promise<(movie: Movie) => boolean> {
  const counts = complete
    ? undefined
    : new Map((await log.stats()).rewatched.map(({ imdbLink, count }) => [imdbLink, count]))
  // Oldest first: a screening is a rewatch when one of the film's came before it.
  const before = new Map<string, number>()
  const rewatches = new Set<Movie>()
  for (const [at, movie] of [...entries].reverse().entries()) {
    const seen = before.get(movie.imdbLink) ?? 0
    before.set(movie.imdbLink, seen + 1)
    if (entries.length - at > RSS_ITEMS) continue
    const outside = counts ? (counts.get(movie.imdbLink) ?? 1) - inWindow(entries, movie) : 0
    if (seen > 0 || outside > 0) rewatches.add(movie)
  }
  return (movie) => rewatches.has(movie)
}

const inWindow = (entries: readonly Movie[], movie: Movie) =>
  entries.filter((each) => each.imdbLink === movie.imdbLink).length
