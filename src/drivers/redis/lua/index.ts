import { createHash } from 'node:crypto'
import { DROP_BATCH, DROP_LAST } from './drop'
import { CHANGES_AFTER, LATEST_CHANGE, PAGE } from './reads'
import { SEARCH, SEARCH_PAGE } from './search'
import { COUNT_ONE, COUNT_PENDING, OLDER_UNCOUNTED, PAGE_ONE, TALLIES, UNCOUNTED } from './terms'
import { PUTS, RECORD, REMOVE, REPLACE } from './writes'

/**
 * Every Lua script the Redis driver runs, by name: the one place the driver's scripts are
 * found (each file of this folder holds the scripts of one concern; `COUNT_TERMS` is a
 * function they include, not a script). A script is run by its SHA-1 (`shaOf`), its text sent
 * only when Redis lacks it.
 * @example
 * await run(SCRIPTS.LATEST_CHANGE, [keys.history], [])
 */
export const SCRIPTS = {
  REPLACE,
  REMOVE,
  PUTS,
  RECORD,
  CHANGES_AFTER,
  LATEST_CHANGE,
  PAGE,
  DROP_BATCH,
  DROP_LAST,
  SEARCH,
  SEARCH_PAGE,
  TALLIES,
  COUNT_PENDING,
  OLDER_UNCOUNTED,
  COUNT_ONE,
  PAGE_ONE,
  UNCOUNTED,
} as const

export { PREFIX_WORDS } from './search'

const shas = new Map<string, string>()
/**
 * A script's SHA-1, for EVALSHA (computed once per script).
 * @example
 * await redis.evalSha(shaOf(SCRIPTS.PAGE), { keys, arguments: args })
 */
export function shaOf(script: string): string {
  let sha = shas.get(script)
  if (sha === undefined) {
    sha = createHash('sha1').update(script).digest('hex')
    shas.set(script, sha)
  }
  return sha
}
