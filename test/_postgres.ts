import { randomBytes } from 'node:crypto'
import pg from 'pg'

/**
 * The PostgreSQL URL that may create roles and databases and end their connections: a test
 * that cuts PostgreSQL works on a role and database of its own, never on anyone else's.
 */
export const POSTGRES_ADMIN_URL = process.env.POSTGRES_ADMIN_URL ?? process.env.POSTGRES_URL

/** A database and a login role of a test's own, to cut, refuse and drop. */
export interface PrivatePostgres {
  /** The store URL, as the role (with its password). */
  url: string
  database: string
  /** Ends every connection to the database; resolves with how many there were. */
  terminate(): Promise<number>
  /** Connections open to the database right now. */
  connections(): Promise<number>
  /** Sets the database's CONNECTION LIMIT; resolves with the limit it had. */
  setConnectionLimit(limit: number): Promise<number>
  /** Ends its connections, drops the database and the role. */
  drop(): Promise<void>
}

async function asAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  // The admin connection is ours and short: an error on it fails the query that waits on it.
  client.on('error', () => {})
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/**
 * Creates a role (not a superuser: CONNECTION LIMIT binds it) and a database it may create
 * tables in, both named `movie_log_<tag>_<random>`.
 */
export async function createPrivatePostgres(
  tag: string,
  adminUrl = POSTGRES_ADMIN_URL as string,
): Promise<PrivatePostgres> {
  const name = `movie_log_${tag}_${randomBytes(4).toString('hex')}`
  const password = randomBytes(12).toString('hex')
  await asAdmin(adminUrl, async (admin) => {
    await admin.query(`CREATE ROLE ${name} LOGIN PASSWORD '${password}'`)
    await admin.query(`CREATE DATABASE ${name}`)
  })
  const databaseUrl = new URL(adminUrl)
  databaseUrl.pathname = `/${name}`
  // PostgreSQL 15 lets only the owner create in `public`: grant it to the role.
  await asAdmin(databaseUrl.href, (admin) => admin.query(`GRANT ALL ON SCHEMA public TO ${name}`))
  const url = new URL(databaseUrl)
  url.username = name
  url.password = password

  const terminate = () =>
    asAdmin(adminUrl, async (admin) => {
      const { rows } = await admin.query(
        'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      )
      return rows.filter((row) => row.ended).length
    })
  return {
    url: url.href,
    database: name,
    terminate,
    connections: () =>
      asAdmin(adminUrl, async (admin) => {
        const { rows } = await admin.query(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        )
        return rows[0].n as number
      }),
    setConnectionLimit: (limit) =>
      asAdmin(adminUrl, async (admin) => {
        const { rows } = await admin.query(
          'SELECT datconnlimit FROM pg_database WHERE datname = $1',
          [name],
        )
        await admin.query(`ALTER DATABASE ${name} CONNECTION LIMIT ${Number(limit)}`)
        return rows[0].datconnlimit as number
      }),
    drop: async () => {
      await asAdmin(adminUrl, async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        await admin.query(`DROP ROLE IF EXISTS ${name}`)
      })
    },
  }
}
