/**
 * Dropping one owner's log on Redis: its movies are named by its ids set, its records by its
 * set of live records, its search keys by its words and links (a SCAN would walk every key of
 * the store, and on a cluster every node). The names are deleted in batches, then the sets in
 * one script that first makes sure every batch left its set empty: an add (or a read counting
 * a new movie's terms) between the last batch and that script would otherwise leave its keys
 * behind with nothing naming them and no expiry, kept after the log was dropped. Every key is
 * under the owner's hash tag, so on a cluster each script stays in its slot.
 */
import { redisLogKeys } from './keys'
import { DROP_BATCH, DROP_LAST } from './scripts'

type Run = (script: string, keys: string[], args: string[]) => Promise<unknown>

// Names deleted per script: small enough not to stall Redis.
const DROP_BATCH_SIZE = 500

/** Deletes every key of `owner`'s log; the caller takes it out of the owners set after. */
export async function dropRedisLog(run: Run, namespace: string, owner: string): Promise<void> {
  const keys = redisLogKeys(namespace, owner)
  const named = [
    [keys.ids, [keys.movie]],
    [keys.records, [keys.record]],
    [keys.words, ['word:', 'wd:', 'wi:'].map((kind) => `${keys.tag}:${kind}`)],
    [keys.links, [`${keys.tag}:seen:`]],
  ] as const
  const sets = named.map(([names]) => names)
  const last = [...sets, keys.dates, keys.changes, keys.history, keys.tallies, keys.counted]
  last.push(keys.paged, keys.pending)
  do {
    for (const [names, [prefix, ...prefixes]] of named) {
      const args = [prefix, String(DROP_BATCH_SIZE), ...prefixes]
      while ((await run(DROP_BATCH, [names], args)) === DROP_BATCH_SIZE);
    }
    // 0: a set has names again (added since its batch): the batches run again.
  } while ((await run(DROP_LAST, last, [String(sets.length)])) === 0)
}
