/**
 * What a catalog is loaded from, read from IMDb's datasets (`src/formats/imdb-datasets.ts`) and
 * written by a driver, and the error of a catalog not loaded yet.
 */
import { MovieLogError } from './errors'

/** One kept row of `title.basics.tsv.gz`: a movie or a TV movie. */
export interface CatalogTitle {
  /** The number of its `tconst` (`tt0133093` is 133093). */
  id: number
  title: string
  originalTitle: string
  year: number | undefined
  runtimeMinutes: number | undefined
}

/** One row of `title.akas.tsv.gz`: another title of an entry (another language, a region's). */
export interface CatalogAka {
  id: number
  title: string
}

/** The IMDb link of a title's number: 133093 is `https://www.imdb.com/title/tt0133093/`. */
export function imdbLinkOf(id: number): string {
  return `https://www.imdb.com/title/tt${String(id).padStart(7, '0')}/`
}

/**
 * No catalog has been loaded where this one reads (`movie-log catalog load` loads one).
 *
 * @example
 * ```ts
 * catch (error) { if (CatalogNotLoadedError.is(error)) console.log(error.message) }
 * ```
 */
export class CatalogNotLoadedError extends MovieLogError {
  override name = 'CatalogNotLoadedError'
  protected static override readonly names = ['CatalogNotLoadedError']

  constructor(where: string) {
    super(
      'CATALOG_NOT_LOADED',
      `No IMDb catalog is loaded (${where}): load one with \`movie-log catalog load title.basics.tsv.gz [title.akas.tsv.gz]\``,
    )
  }
}
