/**
 * A log's latest change (a page's version) kept per owner, for a store whose connection has a
 * change clock (`SqlConnection.changeClock`): SQLite on a synchronous library.
 */

/** Owners whose latest change is kept, the most recently read (a bound: owners are many). */
const LATEST_KEPT = 1024

/**
 * A log's latest change, kept with the store's change clock as it was before it was read: asked
 * of the store again only once the clock has moved. Read after the clock, a change committed
 * in between is kept under a clock that has moved past it, so it is never served late.
 */
export function latestChanges(clock: (() => number) | undefined) {
  const kept = new Map<string, { at: number; seq: string | undefined }>()
  return async (owner: string, read: () => Promise<string | undefined>) => {
    if (!clock) return read()
    const at = clock()
    const known = kept.get(owner)
    if (known?.at === at) return known.seq
    const seq = await read()
    kept.delete(owner)
    if (kept.size >= LATEST_KEPT) kept.delete(kept.keys().next().value as string)
    kept.set(owner, { at, seq })
    return seq
  }
}
