/**
 * One endpoint's runs in this process: never two at once, run again when poked meanwhile, and
 * again at the time the last run asked for (a retry, the lease's next period).
 */
import type { Lease } from './lease'

/** An endpoint's runs. */
export interface EndpointWorker {
  /** Runs now, or right after the run under way. */
  poke(): void
  /** No run starts after; resolves once the run under way has ended and the lease is let go. */
  stop(): Promise<void>
}

/**
 * Runs `run` when poked, one run at a time: it resolves to when it wants to run again (epoch
 * ms), or `undefined` for "when poked". A run that fails (the store, most likely) is told to
 * `onError` and tried again after `storeRetryMs`.
 */
export function endpointWorker(
  run: () => Promise<number | undefined>,
  lease: Pick<Lease, 'release'>,
  settings: { now: () => number; onError: (error: unknown) => void; storeRetryMs: number },
): EndpointWorker {
  let current: Promise<void> | undefined
  let again = false
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined

  const later = (at: number) => {
    clearTimeout(timer)
    timer = setTimeout(poke, Math.max(0, at - settings.now()))
    timer.unref?.()
  }
  function poke(): void {
    if (stopped) return
    if (current) {
      again = true
      return
    }
    clearTimeout(timer)
    current = run()
      .then(
        (next) => {
          if (next !== undefined) later(next)
        },
        (error: unknown) => {
          settings.onError(error)
          later(settings.now() + settings.storeRetryMs)
        },
      )
      .finally(() => {
        current = undefined
        if (again) {
          again = false
          poke()
        }
      })
  }
  return {
    poke,
    stop: async () => {
      if (stopped) return
      stopped = true
      clearTimeout(timer)
      await current
      await lease.release().catch(settings.onError)
    },
  }
}
