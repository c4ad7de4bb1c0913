/**
 * Progress on standard error: a bar redrawn in place on a terminal, nothing otherwise (output
 * that a script reads stays machine-readable).
 */
const WIDTH = 30
const EVERY_MS = 100

/** A progress line: `update(done, total?)` as work moves, `end()` when it is finished. */
export interface Progress {
  update(done: number, total?: number): void
  end(): void
}

/** A progress line for `label`, drawn only when standard error is a terminal. */
export function createProgress(label: string, stream = process.stderr): Progress {
  if (!stream.isTTY) return { update: () => {}, end: () => {} }
  let last = 0
  let shown = false
  const draw = (done: number, total?: number) => {
    const count = done.toLocaleString('en')
    let line = `${label} ${count}`
    if (total && total > 0) {
      const share = Math.min(done / total, 1)
      const filled = Math.round(share * WIDTH)
      line = `${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${Math.floor(share * 100)}%`
    }
    stream.write(`\r${line}\u001b[K`)
    shown = true
  }
  return {
    update(done, total) {
      const now = Date.now()
      if (now - last < EVERY_MS) return
      last = now
      draw(done, total)
    },
    end() {
      if (shown) stream.write('\r\u001b[K')
    },
  }
}
