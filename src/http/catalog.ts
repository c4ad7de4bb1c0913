/**
 * `GET {base}/catalog?q=&year=`: IMDb entries for a title, best first, from the catalog the
 * handlers were given (`catalog` option). Without one, the problem says how to load one.
 */
import type { Catalog } from '../core/catalog'
import { CatalogNotLoadedError } from '../core/catalog-rows'
import { problemReply } from './problem'
import { jsonReply, type Reply } from './reply'

/** The longest title asked: a title is never longer, and a longer one costs a long key. */
const MAX_QUERY_LENGTH = 500

/** Answers one question of the catalog; a bad `q` or `year` is a 400 naming the parameter. */
export async function catalogReply(catalog: Catalog | undefined, url: URL): Promise<Reply> {
  const q = url.searchParams.get('q') ?? ''
  const year = url.searchParams.get('year')
  if (q.trim() === '' || q.length > MAX_QUERY_LENGTH) {
    return refused('q', `must be a title, 1 to ${MAX_QUERY_LENGTH} characters`)
  }
  if (year !== null && !/^\d{4}$/.test(year)) return refused('year', 'must be a year like 1999')
  if (!catalog) throw new CatalogNotLoadedError('this server was given none')
  const entries = await catalog.find({ title: q, year: year === null ? undefined : Number(year) })
  return jsonReply(200, JSON.stringify(entries), {})
}

function refused(parameter: string, detail: string): Reply {
  return problemReply(400, `The ${parameter} parameter is not valid.`, {}, [{ parameter, detail }])
}
