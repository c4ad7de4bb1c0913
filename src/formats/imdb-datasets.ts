/**
 * IMDb's datasets (https://developer.imdb.com/non-commercial-datasets/) as catalog rows:
 * `title.basics.tsv` and `title.akas.tsv`, read line by line. Tab separated, a header line,
 * `\N` for an empty cell, no quoting (a title never holds a tab).
 */
import type { CatalogAka, CatalogTitle } from '../core/catalog-rows'

const EMPTY = '\\N'
/** The title types a diary of screened movies keeps: feature films and TV movies. */
const KEPT_TYPES = new Set(['movie', 'tvMovie'])
const BASICS = [
  'tconst',
  'titleType',
  'primaryTitle',
  'originalTitle',
  'startYear',
  'runtimeMinutes',
]
const AKAS = ['titleId', 'title']

/** Which of IMDb's two files a header line is, with the place of each column read. */
export type DatasetHeader =
  | { kind: 'basics'; at: Record<string, number> }
  | { kind: 'akas'; at: Record<string, number> }

/**
 * The header line of a dataset, or an error that names the columns missing: the files are read
 * by column name, so a reordered or widened file is still read right.
 *
 * @example
 * ```ts
 * readDatasetHeader('tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres')
 * // { kind: 'basics', at: { tconst: 0, titleType: 1, ... } }
 * ```
 */
export function readDatasetHeader(line: string, file: string): DatasetHeader {
  const columns = line.replace(/^\uFEFF/, '').split('\t')
  const at = Object.fromEntries(columns.map((name, index) => [name, index]))
  const kind = 'tconst' in at ? 'basics' : 'titleId' in at ? 'akas' : undefined
  const wanted = kind === 'akas' ? AKAS : BASICS
  const missing = wanted.filter((name) => !(name in at))
  if (kind === undefined || missing.length > 0) {
    throw new Error(
      `${file} is not IMDb's title.basics.tsv or title.akas.tsv: its header lacks ${missing.join(', ')}`,
    )
  }
  return { kind, at }
}

/**
 * A `title.basics` line as a catalog title, or `undefined` for a title that is not a movie or a
 * TV movie (a series, an episode, a short) or has no usable tconst.
 *
 * @example
 * ```ts
 * titleFromBasics(header, 'tt0133093\tmovie\tThe Matrix\tThe Matrix\t0\t1999\t\\N\t136\tAction,Sci-Fi')
 * // { id: 133093, title: 'The Matrix', originalTitle: 'The Matrix', year: 1999, runtimeMinutes: 136 }
 * ```
 */
export function titleFromBasics(header: DatasetHeader, line: string): CatalogTitle | undefined {
  const cells = line.split('\t')
  const { at } = header
  if (!KEPT_TYPES.has(cells[at.titleType as number] as string)) return undefined
  const id = tconstNumber(cells[at.tconst as number])
  const title = cell(cells[at.primaryTitle as number])
  if (id === undefined || title === undefined) return undefined
  return {
    id,
    title,
    originalTitle: cell(cells[at.originalTitle as number]) ?? title,
    year: whole(cells[at.startYear as number]),
    runtimeMinutes: whole(cells[at.runtimeMinutes as number]),
  }
}

/**
 * A `title.akas` line as another title of an entry, or `undefined` when it has none.
 *
 * @example
 * ```ts
 * akaFromLine(header, 'tt0211915\t3\tDie fabelhafte Welt der Amélie\tDE\tde\timdbDisplay\t\\N\t0')
 * // { id: 211915, title: 'Die fabelhafte Welt der Amélie' }
 * ```
 */
export function akaFromLine(header: DatasetHeader, line: string): CatalogAka | undefined {
  const cells = line.split('\t')
  const id = tconstNumber(cells[header.at.titleId as number])
  const title = cell(cells[header.at.title as number])
  return id === undefined || title === undefined ? undefined : { id, title }
}

function cell(value: string | undefined): string | undefined {
  return value === undefined || value === EMPTY || value === '' ? undefined : value
}

function whole(value: string | undefined): number | undefined {
  const text = cell(value)
  return text !== undefined && /^\d{1,5}$/.test(text) ? Number(text) : undefined
}

function tconstNumber(value: string | undefined): number | undefined {
  const digits = /^tt(\d{1,10})$/.exec(value ?? '')?.[1]
  return digits === undefined ? undefined : Number(digits)
}
