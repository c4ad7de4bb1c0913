/**
 * A finished movie without an IMDb id (Emby and Jellyfin items that carry only a name and a
 * year) matched through the catalog: logged when exactly one IMDb entry has that title and year;
 * else still a 422, which says why.
 */
import type { Catalog } from '../core/catalog'
import { matchInCatalog } from '../core/catalog-match'
import { CatalogNotLoadedError } from '../core/catalog-rows'
import type { Scrobble } from '../formats/scrobble'

const TT = /\/title\/(tt\d+)\/$/

/** `read` with its IMDb id found in `catalog`, when it lacked one and the catalog has it. */
export async function matched(read: Scrobble, catalog: Catalog | undefined): Promise<Scrobble> {
  if (read.kind !== 'incomplete' || !read.unmatched || !catalog) return read
  const { title, releaseYear } = read.unmatched
  const [issue] = read.issues
  const refuse = (why: string): Scrobble => ({
    kind: 'incomplete',
    issues: [{ path: issue?.path ?? '', message: `${issue?.message}, and ${why}` }],
  })
  if (typeof title !== 'string' || title.trim() === '') return refuse('it has no title to match')
  if (!Number.isSafeInteger(releaseYear)) return refuse('it has no year to match its title with')
  const found = await matchInCatalog(catalog, { title, year: releaseYear as number }).catch(
    (error: unknown) => {
      // No catalog loaded yet: the 422 of a server without one.
      if (CatalogNotLoadedError.is(error)) return undefined
      throw error
    },
  )
  if (!found) return read
  if (!found.entry) return refuse(found.reason)
  const imdbId = TT.exec(found.entry.imdbLink)?.[1] as string
  return { kind: 'watched', imdbId, ...read.unmatched }
}
