/** The IMDb catalog's port: titles and years answered with IMDb entries, best first. */

/** One IMDb entry a title may name. */
export interface CatalogEntry {
  /** `https://www.imdb.com/title/tt…/` */
  imdbLink: string
  title: string
  originalTitle: string
  year: number | undefined
  runtimeMinutes: number | undefined
}

/** What `find` is asked: a title as a person or a service wrote it, and its year when known. */
export interface CatalogQuery {
  title: string
  year?: number
}

/** A loaded catalog: candidates for a title, best first (at most `limit`, 10 by default). */
export interface Catalog {
  find(query: CatalogQuery, limit?: number): Promise<CatalogEntry[]>
}
