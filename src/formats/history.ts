/** A row of another service's history (Letterboxd, Trakt, Netflix) before it is matched to IMDb. */
import type { ValidationIssue } from '../core/errors'

/**
 * One screening as a service wrote it: what a movie needs, with the IMDb link and the year when
 * the service gave them, and `source`, which names the row the same way in every export of it.
 *
 * @example
 * ```ts
 * const screening: Screening = { source: 'letterboxd:https://boxd.it/1', title: 'Heat', releaseYear: 1995, imdbLink: undefined, screenedDate: '2024-05-01T00:00:00.000', notes: '' }
 * ```
 */
export interface Screening {
  source: string
  title: string
  releaseYear: number | undefined
  imdbLink: string | undefined
  screenedDate: string
  notes: string
  /** 1 to 10, as the log keeps ratings. */
  rating?: number
  tags?: string[]
}

/**
 * A history row read: a screening, a row refused with `issues` naming the service's column, or
 * one passed over because it is not a movie (an episode, a trailer).
 *
 * @example
 * ```ts
 * const rows: HistoryRow[] = [{ line: 3, passedOver: 'episode' }]
 * ```
 */
export type HistoryRow =
  | { line: number; screening: Screening }
  | { line: number; issues: ValidationIssue[] }
  | { line: number; passedOver: 'episode' | 'trailer' }

/**
 * A cell of `record` by its column name in `header`, trimmed; `''` when the column is missing.
 *
 * @example
 * ```ts
 * cellOf(['Title', 'Date'], ['Heat', '5/1/24'])('Date') // '5/1/24'
 * ```
 */
export const cellOf =
  (header: readonly string[], record: readonly string[]) =>
  (column: string): string => {
    const at = header.indexOf(column)
    return at < 0 ? '' : (record[at] ?? '').trim()
  }

/**
 * An IMDb id (`tt0113277`) as the log's imdbLink, or `undefined` when it is not one.
 *
 * @example
 * ```ts
 * imdbLinkOf('tt0113277') // 'https://www.imdb.com/title/tt0113277/'
 * ```
 */
export const imdbLinkOf = (id: string): string | undefined =>
  /^tt\d{7,10}$/.test(id) ? `https://www.imdb.com/title/${id}/` : undefined

/**
 * A year cell as a number; `undefined` when it is empty or not a year.
 *
 * @example
 * ```ts
 * yearOf('1995') // 1995
 * ```
 */
export const yearOf = (cell: string | number | undefined | null): number | undefined =>
  /^\d{4}$/.test(String(cell ?? '')) ? Number(cell) : undefined
