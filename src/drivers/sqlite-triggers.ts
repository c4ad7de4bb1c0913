/**
 * SQLite keeps a trigger as the movie-log that created it wrote it (`CREATE TRIGGER IF NOT
 * EXISTS` leaves one that exists). A trigger this version writes differently, to the same
 * effect but cheaper, is rewritten when the driver opens the file.
 */
import type { SqliteClient } from './sqlite-client'

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
 * Rewrites the triggers the file has in another form than `schema`'s, in one transaction: no
 * write runs between a trigger's drop and its new form. Each keeps its name, so an older
 * movie-log opening the file finds it and leaves it; under a new name, the older version would
 * create its own again beside it, and every change would be counted twice.
 */
export async function rewriteChangedTriggers(
  client: SqliteClient,
  schema: readonly string[],
): Promise<void> {
  if ((await changedTriggers(client, schema)).length === 0) return
  const wanted = wantedTriggers(schema)
  await client.query('BEGIN IMMEDIATE', [])
  try {
    // Read again under the write lock: another process may have rewritten them meanwhile.
    for (const name of await changedTriggers(client, schema)) {
      await client.query(`DROP TRIGGER ${name}`, [])
      await client.query(wanted.get(name) as string, [])
    }
    await client.query('COMMIT', [])
  } catch (error) {
    await client.query('ROLLBACK', []).catch(() => {})
    throw error
  }
}
