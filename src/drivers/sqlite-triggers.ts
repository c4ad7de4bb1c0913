/**
 * SQLite keeps a trigger as the movie-log that created it wrote it (`CREATE TRIGGER IF NOT
 * EXISTS` leaves one that exists). A trigger this version writes differently, to the same
 * effect but cheaper, is rewritten when the driver opens the file.
 */
import type { SqliteClient, SqlStep } from './sqlite-client'

const CREATE = 'CREATE TRIGGER IF NOT EXISTS '

/** Each trigger the schema creates, by name, as SQLite stores its statement. */
function wantedTriggers(schema: readonly string[]): Map<string, string> {
  const wanted = new Map<string, string>()
  for (const statement of schema) {
    if (!statement.startsWith(CREATE)) continue
    const name = /^\w+/.exec(statement.slice(CREATE.length))?.[0]
    if (name) wanted.set(name, `CREATE TRIGGER ${statement.slice(CREATE.length)}`)
  }
  return wanted
}

/** The triggers in the file that the schema writes otherwise. */
export async function changedTriggers(
  client: SqliteClient,
  schema: readonly string[],
): Promise<string[]> {
  const wanted = wantedTriggers(schema)
  const stored = await client.query(
    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'",
    [],
  )
  return stored
    .filter(({ name, sql }) => wanted.has(String(name)) && wanted.get(String(name)) !== sql)
    .map(({ name }) => String(name))
}

/**
 * Rewrites the triggers the file has in another form than `schema`'s, in one transaction (the
 * client's commit: on a synchronous library in one go, so no other connection of this process
 * waits on its lock between two steps): no write runs between a trigger's drop and its new form.
 * Each keeps its name, so an older movie-log opening the file finds it and leaves it; under a new
 * name, the older version would create its own again beside it, and every change would be
 * counted twice. Another process rewriting them meanwhile makes the same triggers.
 */
export async function rewriteChangedTriggers(
  client: SqliteClient,
  schema: readonly string[],
): Promise<void> {
  const changed = await changedTriggers(client, schema)
  if (changed.length === 0) return
  const wanted = wantedTriggers(schema)
  const steps = changed.flatMap((name): SqlStep[] => [
    [`DROP TRIGGER IF EXISTS ${name}`, []],
    [wanted.get(name) as string, []],
  ])
  const [outcome] = await client.commit([steps])
  if (!outcome?.ok) throw outcome?.error
}
