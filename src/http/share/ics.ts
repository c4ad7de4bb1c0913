/**
 * A share link's iCalendar feed (RFC 5545): each screening an event at its local time in the
 * server's time zone, with that zone's `VTIMEZONE`; a stable `UID` per entry, a `SEQUENCE` that
 * grows with each edit of what it shows, and an entry deleted gone from the next fetch.
 * Written by ical-generator (folding, escaping), the zone's rules from timezones-ical-library,
 * each wall-clock time as a `TZDate` of @date-fns/tz: loaded on the first calendar asked for.
 */
import { TZDate } from '@date-fns/tz'
import { ICalCalendar } from 'ical-generator'
import { tzlib_get_ical_block } from 'timezones-ical-library'
import type { Movie } from '../../core/movie'
import type { Revisions } from './revisions'

/** What the calendar is written from. */
export interface IcsFeed {
  /** The screenings as shown (notes left out when hidden), latest first. */
  entries: readonly Movie[]
  revisions: Revisions
  /** The zone the screenings' local times are in (an IANA name). */
  timeZone: string
}

/** The calendar as text (CRLF lines, folded at 75 octets). */
export function icsOf(feed: IcsFeed): string {
  // The zone as the rules name it (`Asia/Calcutta` is `Asia/Kolkata`); `Etc/UTC` for UTC.
  const [block = '', tzid = ''] = tzlib_get_ical_block(feed.timeZone) as string[]
  const zone = tzid.replace(/^TZID=/, '') || feed.timeZone
  const calendar = new ICalCalendar({
    name: 'Movie diary',
    prodId: '//movie-log//diary//EN',
    // No name: DTSTAMP and LAST-MODIFIED stay in UTC, as RFC 5545 has them; the events name
    // their zone, whose VTIMEZONE the generator writes.
    timezone: { name: null, generator: (asked) => (asked === zone ? block : null) },
  })
  for (const movie of feed.entries) {
    const { sequence, since } = feed.revisions.of(movie.id)
    const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = movie.screenedDate
      .split(/[-T:.]/)
      .map(Number)
    const start = new TZDate(year, month - 1, day, hour, minute, second, zone)
    calendar.createEvent({
      id: `${movie.id}@movie-log`,
      // A zone the rules do not know: the same instants in UTC, rather than a TZID undefined.
      start: block ? start : new Date(start.getTime()),
      timezone: block ? zone : null,
      summary: `${movie.title} (${movie.releaseYear})`,
      description: movie.notes || null,
      url: movie.imdbLink,
      sequence,
      stamp: new Date(since),
      lastModified: new Date(since),
    })
  }
  return calendar.toString()
}
