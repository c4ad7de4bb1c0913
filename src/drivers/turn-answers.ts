/**
 * Answers given together: the adds a store makes at once, in memory, answered after the I/O of
 * the event loop's turn, all in one go, as SQLite's group commit and Redis's batched adds answer
 * theirs. A server then reads the turn's requests, handles them, and writes their responses
 * back to back: each step runs with its code and data warm, and a client on the same machine
 * is woken once for the lot. Under 32 concurrent POSTs this took a third to two fifths off the
 * CPU of a POST on memory (bench/NOTES.md); an add made alone waits one turn, about a
 * microsecond.
 */

// The runtime's own, taken when this module loads: fake timers a test installs later do not
// hold the answers back. A runtime without it (a Worker) answers at once.
const nextTurn: ((flush: () => void) => unknown) | undefined =
  typeof globalThis.setImmediate === 'function' ? globalThis.setImmediate : undefined

let waiting: (() => void)[] = []

function flush(): void {
  const answers = waiting
  waiting = []
  for (const answer of answers) answer()
}

/** Resolves after the I/O of this turn, with every other answer waiting on it. */
export function endOfTurn(): Promise<void> {
  if (!nextTurn) return Promise.resolve()
  return new Promise((resolve) => {
    if (waiting.push(resolve) === 1) nextTurn(flush)
  })
}
