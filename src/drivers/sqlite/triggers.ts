/**
 * SQLite keeps a trigger as the movie-log that created it wrote it (`CREATE TRIGGER IF NOT
 * EXISTS` leaves one that exists). A trigger an older movie-log wrote, which this version writes
 * to the same effect but cheaper, is rewritten when the driver opens the file.
 */
import type { SqliteClient, SqlStep } from './client'

const CREATE = 'CREATE TRIGGER IF NOT EXISTS '

/** Each trigger the statements create, by name, as SQLite stores its statement. */
function triggersOf(statements: readonly string[]): Map<string, string> {
  const triggers = new Map<string, string>()
  for (const statement of statements) {
    if (!statement.startsWith(CREATE)) continue
    const name = /^\w+/.exec(statement.slice(CREATE.length))?.[0]
    if (name) triggers.set(name, `CREATE TRIGGER ${statement.slice(CREATE.length)}`)
  }
  return triggers
}

/**
 * The triggers in the file as `older` writes them where `schema` writes them otherwise. A
 * trigger in any other form (a newer movie-log's, say) is not this version's to rewrite.
 */
export async function olderTriggers(
  client: SqliteClient,
  schema: readonly string[],
  older: readonly string[],
): Promise<string[]> {
  const wanted = triggersOf(schema)
  const replaced = triggersOf(older)
  const stored = await client.query(
    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'",
    [],
  )
  return stored
    .filter(({ name, sql }) => {
      const was = replaced.get(String(name))
      return was !== undefined && sql === was && wanted.get(String(name)) !== sql
    })
    .map(({ name }) => String(name))
}

/**
 * Rewrites the triggers the file has as `older` writes them into `schema`'s form, in one
 * transaction (the client's commit: on a synchronous library in one go, so no other connection
 * of this process waits on its lock between two steps): no write runs between a trigger's drop
 * and its new form. Each keeps its name, so an older movie-log opening the file finds it and
 * leaves it; under a new name, the older version would create its own again beside it, and
 * every change would be counted twice. Another process rewriting them meanwhile makes the same.
 */
export async function rewriteOlderTriggers(
  client: SqliteClient,
  schema: readonly string[],
  older: readonly string[],
): Promise<void> {
  const names = await olderTriggers(client, schema, older)
  if (names.length === 0) return
  const wanted = triggersOf(schema)
  const steps = names.flatMap((name): SqlStep[] => [
    [`DROP TRIGGER IF EXISTS ${name}`, []],
    [wanted.get(name) as string, []],
  ])
  const [outcome] = await client.commit([steps])
  if (!outcome?.ok) throw outcome?.error
}

/**
 * Whether the file's trigger of this name is as `statement` writes it (not an older or a newer
 * movie-log's form, which `rewriteOlderTriggers` may have left).
 */
export async function hasTriggerAs(client: SqliteClient, statement: string): Promise<boolean> {
  const [[name, sql] = []] = triggersOf([statement])
  const [row] = await client.query(
    "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?",
    [name],
  )
  return name !== undefined && row?.sql === sql
}
