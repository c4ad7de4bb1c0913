/**
 * Ratings from another service into a diary: each rated movie rates the person's latest entry
 * of it (the latest screening of its IMDb link), as Plex's `media.rate` and Trakt's
 * `/sync/ratings` do. A rating adds no entry: a movie never logged is reported, not added.
 */
import type { Catalog } from '../core/catalog'
import type { ImportRowResult } from '../core/import'
import type { Movie } from '../core/movie'
import type { MovieLog } from '../core/movie-log'
import { matchScreening } from './match-screening'
import type { RatingRow } from './trakt-ratings'

/**
 * What became of a ratings file.
 *
 * @example
 * ```ts
 * const { rated, skipped, notInDiary }: RatingsReport = await importRatings(log, rows, catalog, () => {})
 * ```
 */
export interface RatingsReport {
  /** Entries whose rating was set (or changed). */
  rated: number
  /** Entries that had this rating already: an import run again rates nothing. */
  skipped: number
  /** Rated movies the diary has no entry of (or that no one IMDb entry matched). */
  notInDiary: number
  /** Rated movies the catalog named (a service's own IMDb id is not counted). */
  matched: number
  /** Shows, seasons and episodes passed over. */
  episodes: number
  refused: ImportRowResult[]
}

/**
 * Rates the latest entry of each movie of `rows` in `log`. The diary is read once, latest first;
 * a movie without an IMDb id is matched through `catalog` as a screening would be.
 * `onDone` hears how many rows are done with.
 *
 * @example
 * ```ts
 * const report = await importRatings(log, traktRatingsJson(items), catalog, console.log)
 * ```
 */
export async function importRatings(
  log: MovieLog,
  rows: readonly RatingRow[],
  catalog: Catalog | undefined,
  onDone: (rows: number) => void = () => {},
): Promise<RatingsReport> {
  const report: RatingsReport = {
    rated: 0,
    skipped: 0,
    notInDiary: 0,
    matched: 0,
    episodes: 0,
    refused: [],
  }
  const latest = await latestEntries(log)
  for (const [index, row] of rows.entries()) {
    if ('passedOver' in row) report.episodes += 1
    else if ('issues' in row) {
      report.refused.push({ line: row.line, status: 'refused', issues: row.issues })
    } else {
      const { title, releaseYear, imdbLink, rating } = row.rated
      const screening = { source: '', title, releaseYear, imdbLink, screenedDate: '', notes: '' }
      const found = await matchScreening(screening, catalog)
      const entry = 'imdbLink' in found ? latest.get(found.imdbLink) : undefined
      if ('via' in found && found.via === 'catalog') report.matched += 1
      if (!entry) report.notInDiary += 1
      else if (entry.rating === rating) report.skipped += 1
      else {
        latest.set(entry.imdbLink, await log.updateMovie(entry.id, { rating }))
        report.rated += 1
      }
    }
    onDone(index + 1)
  }
  return report
}

/** Each movie's latest entry, by its IMDb link: the diary read once, latest screened first. */
async function latestEntries(log: MovieLog): Promise<Map<string, Movie>> {
  const latest = new Map<string, Movie>()
  const { movies } = await log.listMovies({ sort: '-screenedDate' })
  for (const movie of movies) if (!latest.has(movie.imdbLink)) latest.set(movie.imdbLink, movie)
  return latest
}
