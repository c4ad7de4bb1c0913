/**
 * The year in review: for the year picked (this one first), the counts by month, weekday,
 * hour and release decade as charts, and the movies seen more than once. Counted by the
 * server (`stats`), and counted again when the feed tells of a change.
 */
import type { MovieLog } from '../../client/index'
import { type Bar, barChart } from './chart'
import { element } from './dom'
import { explain } from './explain'
import { Cancelled, type Session } from './token'

const MONTHS =
  'January February March April May June July August September October November December'
const WEEKDAYS = 'Monday Tuesday Wednesday Thursday Friday Saturday Sunday'
// Full names for the tables, their first three letters under the bars.
const named = (names: string, counts: number[]): Bar[] =>
  names.split(' ').map((name, n) => ({ label: name.slice(0, 3), name, count: counts[n] ?? 0 }))
type MovieStats = Awaited<ReturnType<MovieLog['stats']>>
const two = (n: number) => String(n).padStart(2, '0')

function charts(year: string, stats: MovieStats): HTMLElement[] {
  const months = Array.from({ length: 12 }, (_, n) => stats.byMonth[`${year}-${two(n + 1)}`] ?? 0)
  const hours = stats.byHour.map((count, hour) => ({
    label: two(hour),
    name: `${two(hour)}:00 to ${two(hour)}:59`,
    count,
  }))
  const decades = Object.keys(stats.byReleaseDecade)
    .sort()
    .map((decade) => ({ label: `${decade}s`, count: stats.byReleaseDecade[decade] ?? 0 }))
  return [
    barChart('By month', 'Month', named(MONTHS, months)),
    barChart('By weekday', 'Weekday', named(WEEKDAYS, stats.byWeekday)),
    barChart('By hour of the day', 'Hour', hours, 3),
    decades.length > 0
      ? barChart('By release decade', 'Released', decades)
      : element('p', {}, ['By release decade: none.']),
  ]
}

/** Gives life to the year in review (`root`, its `<details>` in the page). */
export function createReview(session: Session, root: HTMLDetailsElement) {
  const find = <T extends Element>(selector: string) => root.querySelector(selector) as T
  const picker = find<HTMLSelectElement>('select')
  const status = find<HTMLParagraphElement>('[role="status"]')
  const drawn = find<HTMLDivElement>('.charts')
  const rewatched = find<HTMLOListElement>('ol')
  const none = find<HTMLParagraphElement>('.none')
  const thisYear = String(new Date().getFullYear())
  let year = thisYear
  // Each count is numbered: one overtaken by a later one (another year, a change) is not shown.
  let reads = 0

  /** The years to pick from: those with a screening, this one and the one shown, latest first. */
  function offer(years: string[]): void {
    const all = [...new Set([...years, thisYear, year])].sort().reverse()
    picker.replaceChildren(...all.map((y) => element('option', { value: y }, [y])))
    picker.value = year
  }

  async function show(): Promise<void> {
    if (!root.open) return
    const read = ++reads
    status.textContent = 'Counting…'
    try {
      const [everything, stats] = await session.run('count your diary', async (log) => [
        await log.stats(),
        await log.stats({ from: year, to: year }),
      ])
      if (read !== reads) return
      offer(Object.keys(everything.byYear))
      const movies = stats.total === 1 ? 'movie' : 'movies'
      status.textContent = `${stats.total} ${movies} screened in ${year}.`
      drawn.replaceChildren(...charts(year, stats))
      rewatched.replaceChildren(
        ...stats.rewatched.map((movie) =>
          element('li', {}, [`${movie.title}: ${movie.count} times`]),
        ),
      )
      none.hidden = stats.rewatched.length > 0
      none.textContent = `No movie screened more than once in ${year}.`
    } catch (error) {
      if (read !== reads) return
      status.textContent =
        error instanceof Cancelled ? 'The year in review needs the token.' : explain(error)
    }
  }

  picker.addEventListener('change', () => {
    year = picker.value
    void show()
  })
  root.addEventListener('toggle', () => void show())
  if (location.hash === '#review') root.open = true
  return {
    /** Counts again (a change was made): only while the review is open. */
    refresh: () => void show(),
  }
}
