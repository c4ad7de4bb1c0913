/**
 * Checkpoints of a file on node:sqlite, run in a worker thread of their own: node:sqlite's calls
 * run in the thread that makes them, and a checkpoint's copy and syncs made in the event loop's
 * would hold every request of the process meanwhile (`checkpoints.ts`).
 */
import type { CheckpointRunner } from './checkpoints'

// The worker, as a script (CommonJS, as `eval` runs it): no file of its own to find once the
// package is bundled. One connection, one statement; a message asks for a checkpoint, `close`
// ends it. A checkpoint's answer is null, or the message of its error.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const { DatabaseSync } = require('node:sqlite')
const db = new DatabaseSync(workerData.path)
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)')
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close()
    parentPort.close()
    return
  }
  try {
    checkpoint.get()
    parentPort.postMessage(null)
  } catch (error) {
    parentPort.postMessage(String(error && error.message))
  }
})
`

/** A thread checkpointing the file at `path` on node:sqlite, one checkpoint at a time. */
export async function checkpointThread(path: string): Promise<CheckpointRunner> {
  const { Worker } = await import('node:worker_threads')
  // No flags of this process (a loader, an inspector): the script needs none.
  const worker = new Worker(WORKER, { eval: true, workerData: { path }, execArgv: [] })
  // Never what keeps the process running: a checkpoint cut short by its exit is safe.
  worker.unref()
  let waiting: { done: () => void; fail: (error: Error) => void } | undefined
  let ended: Error | undefined
  const exited = new Promise<void>((done) => worker.once('exit', () => done()))
  const end = (error: Error) => {
    ended ??= error
    waiting?.fail(error)
    waiting = undefined
  }
  worker.on('error', end)
  void exited.then(() => end(new Error('the checkpoint thread has ended')))
  worker.on('message', (message: string | null) => {
    const answered = waiting
    waiting = undefined
    if (message === null) answered?.done()
    else answered?.fail(new Error(message))
  })
  return {
    checkpoint: () =>
      new Promise<void>((done, fail) => {
        if (ended) return fail(ended)
        waiting = { done, fail }
        worker.postMessage('checkpoint')
      }),
    close: async () => {
      // Waited for: the thread ends its connection before this resolves.
      worker.ref()
      if (!ended) worker.postMessage('close')
      await exited
    },
  }
}
