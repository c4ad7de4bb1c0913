/** The parts of a @keyv/sqlite or @keyv/postgres adapter this index relies on. */
export interface SqlAdapter {
  opts: { dialect: 'sqlite' | 'postgres'; table: string; schema?: string }
  query(sql: string, ...parameters: unknown[]): Promise<{ key: string; value: string }[]>
}

export function isSqlAdapter(store: unknown): store is SqlAdapter {
  const candidate = store as Partial<SqlAdapter> | null
  const dialect = candidate?.opts?.dialect
  return (
    typeof candidate?.query === 'function' &&
    (dialect === 'sqlite' || dialect === 'postgres') &&
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(candidate.opts?.table ?? '') &&
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(candidate.opts?.schema ?? 'public')
  )
}

/**
 * Runs one statement written with `?` placeholders: PostgreSQL numbers them (`$1`) and takes
 * its parameters as one array, SQLite takes them spread.
 */
export function sqlRunner(adapter: SqlAdapter) {
  return (sql: string, parameters: unknown[]) =>
    adapter.opts.dialect === 'postgres'
      ? adapter.query(
          sql.replace(/\?/g, (_, offset: number) => `$${sql.slice(0, offset).split('?').length}`),
          parameters,
        )
      : adapter.query(sql, ...parameters)
}

/** The table as a statement names it. */
export function sqlTable(adapter: SqlAdapter): string {
  const { dialect, table, schema = 'public' } = adapter.opts
  return dialect === 'postgres' ? `"${schema}"."${table}"` : table
}
