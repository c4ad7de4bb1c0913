/**
 * The bound on a handler's imports (`POST {base}/import`): each holds a whole file while it is
 * read, so a few at once, whatever the bound on adds. An import counts until it ends, which may
 * be after its answer began (progress lines).
 */
import { problemReply } from './problem'
import type { Reply } from './reply'

/** An import begun: its answer, and when it ends. */
export interface StartedImport {
  reply: Reply
  ended: Promise<unknown>
}

/** Starts an import if fewer than `max` are running: else a 503 with `Retry-After`. */
export function createImportLimit(
  max: number,
): (start: () => Promise<StartedImport>) => Promise<Reply> {
  let running = 0
  return async (start) => {
    if (running >= max) {
      return problemReply(503, 'Other files are being imported right now; try again shortly.', {
        'retry-after': '5',
      })
    }
    running++
    let ended: Promise<unknown> = Promise.resolve()
    try {
      const started = await start()
      ended = started.ended
      return started.reply
    } finally {
      void ended.finally(() => running--)
    }
  }
}
