/**
 * The watchers of one store driver, by owner, and the one wake source they share (a SUBSCRIBE
 * connection, a LISTEN client, a poller): opened on the first watcher, closed by `close()`.
 */

/** What a wake source is given: whom to wake, and who watches now. */
export interface WakeHub {
  /** Wakes the watchers of one owner. */
  wake(owner: string): void
  /** Wakes every watcher: the source was away and may have missed changes (it is back now). */
  wakeAll(): void
  /** The owners watched now. */
  owners(): string[]
}

/** A wake source, opened once per store: its `close()` must not wait on a peer that is gone. */
export interface WakeSource {
  close(): Promise<void>
}

export interface Watchers {
  /** `StoreDriver.onChange`: opens the wake source on the first call. */
  onChange(owner: string, wake: () => void): () => void
  /** Wakes an owner's watchers in this process, at once (a write of this driver). */
  wake(owner: string): void
  /** Closes the wake source, if it was opened; watchers stay registered and are never woken. */
  close(): Promise<void>
}

/**
 * The watchers of a store, woken by `open`'s source and by this process's own writes. A wake
 * source wakes everyone once it is ready (and again after each reconnect): a change made before
 * it listened, after a watcher last read, is then read too.
 */
export function createWatchers(open: (hub: WakeHub) => WakeSource): Watchers {
  const byOwner = new Map<string, Set<() => void>>()
  let source: WakeSource | undefined
  let closed = false

  const call = (wakes: Iterable<() => void>) => {
    for (const wake of [...wakes]) {
      try {
        wake()
      } catch {
        // A watcher's own failure is its own: the others are still woken.
      }
    }
  }
  const hub: WakeHub = {
    wake: (owner) => {
      const wakes = byOwner.get(owner)
      if (wakes && !closed) call(wakes)
    },
    wakeAll: () => {
      if (!closed) for (const wakes of [...byOwner.values()]) call(wakes)
    },
    owners: () => [...byOwner.keys()],
  }

  return {
    onChange: (owner, wake) => {
      const wakes = byOwner.get(owner) ?? new Set()
      byOwner.set(owner, wakes)
      // Each registration is its own, even of the same function twice.
      const entry = () => wake()
      wakes.add(entry)
      if (!closed) source ??= open(hub)
      return () => {
        const set = byOwner.get(owner)
        set?.delete(entry)
        if (set?.size === 0) byOwner.delete(owner)
      }
    },
    wake: hub.wake,
    close: async () => {
      closed = true
      await source?.close()
    },
  }
}
