/** `movie-log stats`: the log's statistics (`log.stats`), as a table or as JSON. */

import { defineCommand } from 'citty'
import { InvalidPageRequestError, type MovieStats } from '../index'
import { UsageError } from './exit'
import { openLog, storeUrl } from './log-store'
import { ownerArg, storeArg } from './store-arg'

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']

export default defineCommand({
  meta: {
    name: 'stats',
    description:
      'Print the counts of the log by year, month, weekday, hour and decade, the rewatched, the ratings and the tags.',
  },
  args: {
    store: storeArg,
    owner: ownerArg,
    from: { type: 'string', valueHint: 'YYYY[-MM]', description: 'first month counted' },
    to: { type: 'string', valueHint: 'YYYY[-MM]', description: 'last month counted' },
    json: { type: 'boolean', description: 'print the JSON that GET /movies/stats answers' },
  },
  run: async ({ args }) => {
    const { log, close } = await openLog(storeUrl(args.store), args.owner)
    try {
      const stats = await log.stats({ from: args.from, to: args.to }).catch((error: unknown) => {
        if (!InvalidPageRequestError.is(error)) throw error
        const issue = (error as InvalidPageRequestError).issues[0]
        throw new UsageError(`--${issue?.path}: ${issue?.message}`)
      })
      process.stdout.write(args.json ? `${JSON.stringify(stats, null, 2)}\n` : formatStats(stats))
    } finally {
      await close()
    }
  },
})

/**
 * The statistics as the command prints them: one titled block per count, then the rewatched,
 * the ratings given and the tags.
 */
export function formatStats(stats: MovieStats): string {
  const block = (title: string, rows: [string, number | string][]) => {
    if (rows.length === 0) return `${title}\n  (none)\n`
    const width = Math.max(...rows.map(([label]) => label.length))
    return `${title}\n${rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}\n`).join('')}`
  }
  const hours = stats.byHour.map(
    (count, hour) => [String(hour).padStart(2, '0'), count] as [string, number],
  )
  return [
    `Total  ${stats.total}\n`,
    block('By year', Object.entries(stats.byYear)),
    block('By month', Object.entries(stats.byMonth)),
    block(
      'By weekday',
      stats.byWeekday.map((count, day) => [WEEKDAYS[day] as string, count]),
    ),
    block(
      'By hour',
      hours.filter(([, count]) => count > 0),
    ),
    block(
      'By release decade',
      Object.entries(stats.byReleaseDecade).map(([decade, n]) => [`${decade}s`, n]),
    ),
    block(
      'Rewatched',
      stats.rewatched.map((movie) => [`${movie.count}×`, `${movie.title}  ${movie.imdbLink}`]),
    ),
    // Ratings on the page's scale too: 7 is three and a half stars.
    block(
      'By rating',
      stats.byRating.flatMap((count, at) =>
        count > 0 ? [[`${at + 1} (${(at + 1) / 2}★)`, count] as [string, number]] : [],
      ),
    ),
    block(
      'Tags',
      stats.tags.map(({ tag, count }) => [tag, count]),
    ),
  ].join('\n')
}
