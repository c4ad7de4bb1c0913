import { type SqlAdapter, sqlRunner } from './sql-adapter'

// Each index of each table, created once per process.
const created = new Map<string, Promise<void>>()

/**
 * Runs `CREATE INDEX IF NOT EXISTS ...` once per process for `name` on the adapter's table.
 * A failure is forgotten, so the next call tries again.
 */
export function ensureIndex(adapter: SqlAdapter, name: string, statement: string): Promise<void> {
  const { dialect, table, schema = 'public' } = adapter.opts
  const id = `${dialect}:${schema}.${table}:${name}`
  let index = created.get(id)
  if (!index) {
    index = sqlRunner(adapter)(statement, []).then(
      () => {},
      (error: unknown) => {
        created.delete(id)
        // Two processes creating it at once: the other one won, which is just as good.
        if ((error as { code?: string }).code === '23505') return
        throw error
      },
    )
    created.set(id, index)
  }
  return index
}
