/**
 * The CSV exports of other services that `movie-log import` reads, told apart by their header:
 * one plug-in each, the ones movie-log ships listed here (adding one is one line), and an app's
 * added with `registerPlugin({ importFormats })`. NDJSON and the log's own CSV are the command's.
 */
import type { ValidationIssue } from '../core/errors'
import { PluginPoint } from '../core/plugin-point'
import { isImdbHeader, movieFromImdb } from './imdb'

/**
 * A CSV export of another service: how its header is known, and how one record becomes a movie
 * (the log's field rules then check it) or is refused, naming the service's own columns. A
 * plug-in point of `registerPlugin`.
 *
 * @example
 * ```ts
 * const club: ImportFormat = {
 *   name: 'club',
 *   label: "the film club's list",
 *   needs: 'the columns Film, Year, IMDb and Seen',
 *   detects: (header) => ['Film', 'Year', 'IMDb', 'Seen'].every((c) => header.includes(c)),
 *   read: (header, record) => ({ movie: { title: record[header.indexOf('Film')] } }),
 * }
 * ```
 */
export interface ImportFormat {
  /** Its name for `movie-log import --format`: `imdb`. */
  name: string
  /** What it is, in an error: `an IMDb ratings export`. */
  label: string
  /** What its header must have, in an error: `the columns Const, Date Rated and URL`. */
  needs: string
  /** Whether a CSV header (its cells trimmed) is this format's: how `--format auto` picks it. */
  detects(header: readonly string[]): boolean
  /** One record (cells by the header's positions) as a movie, or refused with its issues. */
  read(
    header: readonly string[],
    record: readonly string[],
  ): { movie?: Record<string, unknown>; issues?: ValidationIssue[] }
}

const BUILT_IN: readonly ImportFormat[] = [
  {
    name: 'imdb',
    label: 'an IMDb ratings export',
    needs: 'the columns Const, Date Rated and URL',
    detects: isImdbHeader,
    read: movieFromImdb,
  },
]

/** Every import format, an app's first. */
export const importFormats = new PluginPoint<ImportFormat>(
  'import format',
  (format) => [format.name],
  ['detects', 'read'],
  BUILT_IN,
)
