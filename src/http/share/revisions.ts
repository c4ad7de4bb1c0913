/**
 * What the feeds of a share link remember of each entry they showed: the version of what they
 * showed of it, how many times that changed (iCalendar's `SEQUENCE`) and since when it is as
 * shown (`DTSTAMP`, `LAST-MODIFIED`). A movie carries no edit count or time of its own, so the
 * feeds keep these in one record of the owner's (src/core/records.ts), written only when
 * something they show changed: a fetch that finds nothing new writes nothing.
 */
import type { Movie } from '../../core/movie'
import type { LogRecords } from '../../core/records'
import { versionOf } from '../../core/version'

const KEY = 'share:revisions'
// Kept as long as the link: rewritten on each change, it lives while the feeds are read.
const KEPT_MS = 100 * 365 * 24 * 3600 * 1000

/** One entry as the feeds last showed it: [version, sequence, since (epoch ms)]. */
type Seen = [version: string, sequence: number, since: number]

interface Stored {
  /** When what the feeds show last changed (an entry added, edited or gone). */
  changedAt: number
  entries: Record<string, Seen>
}

/** An entry's revision: its `SEQUENCE`, and since when it is as shown. */
export interface Revision {
  sequence: number
  since: number
}

/** The revisions of the entries shown, and when the whole last changed (`Last-Modified`). */
export interface Revisions {
  of(id: string): Revision
  changedAt: number
}

/**
 * The revisions of `shown` (the movies as the feeds show them, notes left out when hidden, so an
 * edit of hidden notes is no revision), updated in the owner's records when anything differs
 * from what they last showed. Entries no longer shown are forgotten: a movie deleted and the
 * entries that fell past the feeds' window.
 */
export async function revisionsOf(
  records: LogRecords,
  shown: readonly Movie[],
  now: number,
): Promise<Revisions> {
  const text = await records.read(KEY)
  const before: Stored = text ? JSON.parse(text) : { changedAt: now, entries: {} }
  // No prototype: a log with its own ids may have one named `__proto__`.
  const entries: Record<string, Seen> = Object.create(null)
  let changed = !text || Object.keys(before.entries).length !== shown.length
  for (const movie of shown) {
    const version = versionOf(movie)
    const seen = Object.hasOwn(before.entries, movie.id) ? before.entries[movie.id] : undefined
    if (seen?.[0] === version) {
      entries[movie.id] = seen
      continue
    }
    changed = true
    entries[movie.id] = [version, seen ? seen[1] + 1 : 0, now]
  }
  const changedAt = changed ? now : before.changedAt
  if (changed) await records.write(KEY, JSON.stringify({ changedAt, entries }), KEPT_MS)
  return {
    changedAt,
    of: (id) => {
      const [, sequence, since] = entries[id] as Seen
      return { sequence, since }
    },
  }
}
