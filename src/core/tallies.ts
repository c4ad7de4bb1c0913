/**
 * What the statistics are counted from, derived from each movie once, here, for every store:
 * counts by month (of `screenedDate`) kept in the same write as the movie, so `stats` sums a
 * few rows per month and never reads the movies.
 */
import type { Movie } from './movie'
import { movieWords } from './words'

/**
 * A movie's entries in its log's indexes: its search words, the month counters it adds one to
 * (`YYYY-MM|w|<weekday, 0 Monday>`, `YYYY-MM|h|<hour, 2 digits>`, `YYYY-MM|d|<release decade>`,
 * and when set `YYYY-MM|r|<rating>` and `YYYY-MM|t|<tag>` for each tag) and its screening of `link` under `title` in `month` (what `rewatched` counts).
 */
export interface MovieTerms {
  words: string[]
  tallies: string[]
  link: string
  title: string
  month: string
}

export function termsOf(movie: Movie): MovieTerms {
  const month = movie.screenedDate.slice(0, 7)
  const decade = Math.floor(movie.releaseYear / 10) * 10
  return {
    words: movieWords(movie),
    tallies: [
      `${month}|w|${weekdayOf(movie.screenedDate)}`,
      `${month}|h|${movie.screenedDate.slice(11, 13)}`,
      `${month}|d|${decade}`,
      ...extraTallies(month, movie),
    ],
    link: movie.imdbLink,
    title: movie.title,
    month,
  }
}

// A movie without a rating or tags has the very counters it had before they existed. A tag is
// counted as written, its spaces as commas (no tag holds one): Redis splits counters at spaces.
function extraTallies(month: string, movie: Movie): string[] {
  const tallies = movie.rating === undefined ? [] : [`${month}|r|${movie.rating}`]
  for (const tag of movie.tags ?? []) tallies.push(`${month}|t|${tag.replaceAll(' ', ',')}`)
  return tallies
}

/** One link's screenings under one title in one month, as a store keeps them. */
export interface Repeat {
  link: string
  title: string
  month: string
  count: number
}

/**
 * What a driver reads for `stats`: its month counters (those of months `from`..`to` at least;
 * others are ignored) and the screenings by title and month of every link screened more than
 * once in the whole log (a link screened once cannot be a rewatch in any range).
 */
export interface TallyRead {
  counts: Iterable<readonly [string, number]>
  repeats: Iterable<Repeat>
  /**
   * (`repeats` may be summed over the months asked too, each given as of the first of them.)
   * Instead of `counts`, the same counters summed by the store over the months asked: each
   * month's total (its `w` counters), and each `kind|value` (`w|3`, `h|21`, `d|1990`) over all
   * those months. A database sums thousands of rows faster than it sends them.
   */
  summed?: {
    months: Iterable<readonly [string, number]>
    kinds: Iterable<readonly [string, number]>
  }
}

/** Monday 0 ... Sunday 6, of a local `YYYY-MM-DD…` date (its calendar, whatever the zone). */
export function weekdayOf(date: string): number {
  const day = new Date(0)
  // setUTCFullYear takes years 0-99 as they are, where Date.UTC reads them as 1900-1999.
  day.setUTCFullYear(
    Number(date.slice(0, 4)),
    Number(date.slice(5, 7)) - 1,
    Number(date.slice(8, 10)),
  )
  return (day.getUTCDay() + 6) % 7
}
