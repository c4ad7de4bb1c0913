/**
 * SQLite built into the runtime: node:sqlite on Node.js (22.13 and later without a flag) and
 * Deno, bun:sqlite on Bun. Nothing to install, nothing to compile.
 */
import { checkpointThread } from './checkpoint-thread'
import type { CheckpointRunner } from './checkpoints'
import type { SqliteClient } from './client'
import { type SyncDatabase, syncClient, withResultCode } from './sync'

// Held in variables so that bundlers and type checkers leave the imports to the runtime.
const NODE_SQLITE = 'node:sqlite'
const BUN_SQLITE = 'bun:sqlite'

/** Whether this runtime is Bun, whose SQLite is bun:sqlite. */
const onBun = () => typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined'

/**
 * The runtime's own SQLite, loaded, or `undefined` where it has none (Node before 22.13, or
 * 22.5 to 22.12 without `--experimental-sqlite`). On Node 22 loading node:sqlite prints
 * Node's one ExperimentalWarning.
 */
export async function loadBuiltinSqlite(): Promise<((path: string) => SqliteClient) | undefined> {
  if (onBun()) {
    const { Database } = (await import(BUN_SQLITE)) as {
      Database: new (path: string) => SyncDatabase
    }
    return (path) =>
      syncClient(
        'bun:sqlite',
        opened(() => new Database(path)),
      )
  }
  const loaded = (await import(NODE_SQLITE).catch(() => undefined)) as
    | { DatabaseSync: new (path: string) => SyncDatabase }
    | undefined
  if (!loaded) return undefined
  const { DatabaseSync } = loaded
  return (path) =>
    syncClient(
      'node:sqlite',
      opened(() => new DatabaseSync(path)),
    )
}

/** Whether this runtime's SQLite is still experimental (and warns when loaded): Node 22, 23. */
export function builtinSqliteWarns(): boolean {
  const node = (globalThis as { process?: { versions?: Record<string, string> } }).process?.versions
  if (!node?.node || node.bun || node.deno) return false
  return Number.parseInt(node.node, 10) < 24
}

function opened(open: () => SyncDatabase): SyncDatabase {
  try {
    return open()
  } catch (error) {
    throw withResultCode(error)
  }
}

/**
 * Where the runtime's SQLite checkpoints in a thread of its own (`checkpoint-thread.ts`): on
 * node:sqlite from Node 24. Elsewhere (Bun, Deno, Node 22) SQLite checkpoints in the commit, as
 * it does by default.
 */
export function builtinCheckpoints(): ((path: string) => Promise<CheckpointRunner>) | undefined {
  const versions = (globalThis as { process?: { versions?: Record<string, string> } }).process
    ?.versions
  if (onBun() || !versions?.node || versions.deno || builtinSqliteWarns()) return undefined
  return checkpointThread
}
