import { byCodePoint, type LogDriver } from './driver'
import { InvalidPageRequestError, type ValidationIssue } from './errors'
import { type TagCount, tagCounts } from './tag-counts'
import type { Repeat } from './tallies'

/**
 * What `stats` takes: the months counted, each bound `YYYY` or `YYYY-MM`, inclusive of the
 * whole period (statistics are kept by month).
 *
 * @example
 * ```ts
 * await log.stats({ from: '2024', to: '2024' }) // the year 2024
 * ```
 */
export interface StatsOptions {
  from?: string
  to?: string
}

export type { TagCount }

/** A movie screened more than once within the months counted. */
export interface Rewatch {
  imdbLink: string
  /** The title it was logged under most often (ties: the first in code-point order). */
  title: string
  count: number
}

/**
 * The diary's counts, by `screenedDate` (its local time) within the months asked.
 *
 * @example
 * ```ts
 * const { total, byWeekday, rewatched }: MovieStats = await log.stats({ from: '2024' })
 * ```
 */
export interface MovieStats {
  total: number
  /** `{ "2024": 12 }`: years with a screening. */
  byYear: Record<string, number>
  /** `{ "2024-05": 3 }`: months with a screening. */
  byMonth: Record<string, number>
  /** Seven counts, Monday first. */
  byWeekday: number[]
  /** Twenty-four counts, hour 0 first. */
  byHour: number[]
  /** `{ "1990": 4 }`: by the decade of `releaseYear`. */
  byReleaseDecade: Record<string, number>
  /** Movies (by imdbLink) screened more than once, most first; ties by title, then link. */
  rewatched: Rewatch[]
  /** Ten counts of the rated screenings, rating 1 first. */
  byRating: number[]
  /** The tags used, most first, at most 100 (ties in code-point order; see `tagCounts`). */
  tags: TagCount[]
}

const [W, H, D, R, T, ZERO] = ['w', 'h', 'd', 'r', 't', '0'].map((letter) =>
  letter.charCodeAt(0),
) as [number, number, number, number, number, number]

const MONTH = /^\d{4}(-(0[1-9]|1[0-2]))?$/

/** The months `from` and `to` name, as `YYYY-MM`; an `InvalidPageRequestError` naming each bad one. */
export function parseStatsRange(from: unknown, to: unknown): { from: string; to: string } {
  const issues: ValidationIssue[] = []
  const month = (path: string, value: unknown, edge: string, whole: string) => {
    if (value === undefined) return whole
    if (typeof value === 'string' && MONTH.test(value))
      return value.length === 4 ? value + edge : value
    issues.push({ path, message: 'must be YYYY or YYYY-MM (statistics are kept by month)' })
    return ''
  }
  const range = {
    from: month('from', from, '-01', '0000-01'),
    to: month('to', to, '-12', '9999-12'),
  }
  if (issues.length > 0) throw new InvalidPageRequestError(issues)
  return range
}

/** The log's statistics within the months `options` name, from its counters alone. */
export async function readStats(
  driver: Pick<LogDriver, 'tallies'>,
  options: StatsOptions,
): Promise<MovieStats> {
  const range = parseStatsRange(options.from, options.to)
  const stats: MovieStats = {
    total: 0,
    byYear: {},
    byMonth: {},
    byWeekday: new Array(7).fill(0),
    byHour: new Array(24).fill(0),
    byReleaseDecade: {},
    rewatched: [],
    byRating: new Array(10).fill(0),
    tags: [],
  }
  if (range.from > range.to) return stats
  const within = (month: string) => month >= range.from && month <= range.to
  const read = await driver.tallies(range.from, range.to)
  const years = new Map<string, number>()
  const months = new Map<string, number>()
  const decades = new Map<string, number>()
  const tags = new Map<string, number>()
  // Keys are `YYYY-MM|k|value` (tallies.ts): read by position, as there are thousands.
  for (const [key, count] of read.counts) {
    const month = key.slice(0, 7)
    if (count <= 0 || month < range.from || month > range.to) continue
    const kind = key.charCodeAt(8)
    if (kind === W) {
      // Each movie adds one to exactly one weekday of its month: these make the totals.
      stats.total += count
      bumpKey(months, month, count)
      bump(stats.byWeekday, key.charCodeAt(10) - ZERO, count)
    } else if (kind === H) bump(stats.byHour, Number(key.slice(10)), count)
    else if (kind === D) bumpKey(decades, key.slice(10), count)
    else if (kind === R) bump(stats.byRating, Number(key.slice(10)) - 1, count)
    else if (kind === T) bumpKey(tags, key.slice(10), count)
  }
  if (read.summed) {
    for (const [month, count] of read.summed.months) {
      stats.total += count
      bumpKey(months, month, count)
    }
    for (const [kind, count] of read.summed.kinds) {
      const at = kind.charCodeAt(0)
      if (at === W) bump(stats.byWeekday, kind.charCodeAt(2) - ZERO, count)
      else if (at === H) bump(stats.byHour, Number(kind.slice(2)), count)
      else if (at === D) bumpKey(decades, kind.slice(2), count)
      else if (at === R) bump(stats.byRating, Number(kind.slice(2)) - 1, count)
      else if (at === T) bumpKey(tags, kind.slice(2), count)
    }
  }
  for (const [month, count] of months) bumpKey(years, month.slice(0, 4), count)
  stats.byYear = sorted(years)
  stats.byMonth = sorted(months)
  stats.byReleaseDecade = sorted(decades)
  stats.rewatched = rewatches(read.repeats, within)
  stats.tags = tagCounts(tags)
  return stats
}

function rewatches(repeats: Iterable<Repeat>, within: (month: string) => boolean): Rewatch[] {
  const byLink = new Map<string, Map<string, number>>()
  for (const { link, title, month, count } of repeats) {
    if (count <= 0 || !within(month)) continue
    const titles = byLink.get(link) ?? new Map<string, number>()
    titles.set(title, (titles.get(title) ?? 0) + count)
    byLink.set(link, titles)
  }
  const found: Rewatch[] = []
  for (const [imdbLink, titles] of byLink) {
    let count = 0
    let best: [string, number] | undefined
    for (const [title, times] of titles) {
      count += times
      if (!best || times > best[1] || (times === best[1] && byCodePoint(title, best[0]) < 0)) {
        best = [title, times]
      }
    }
    if (count > 1 && best) found.push({ imdbLink, title: best[0], count })
  }
  return found.sort(
    (a, b) =>
      b.count - a.count || byCodePoint(a.title, b.title) || byCodePoint(a.imdbLink, b.imdbLink),
  )
}

function bump(counts: number[], at: number, count: number): void {
  counts[at] = (counts[at] ?? 0) + count
}

function bumpKey(counts: Map<string, number>, key: string, count: number): void {
  counts.set(key, (counts.get(key) ?? 0) + count)
}

// Keys in order, so every store answers the same JSON text.
function sorted(counts: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : 1)))
}
