/** Fills a running server's store with movies: over HTTP, or in SQL batches for SQL stores. */
import type Keyv from 'keyv'
import { openStore } from '../examples/store'
import { createUuidV7Generator } from '../src/core/id'

export const MOVIE = {
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
  notes: 'The diner scene.',
}

const MINUTES = 26 * 365 * 24 * 60
const START = Date.UTC(2000, 0, 1)

/**
 * The `n`th seeded movie: screened on a date from 2000 to 2025, spread by a multiplicative hash
 * so the date order is not the order added (about 1 in 52 falls in the first half of 2024).
 */
export function seededMovie(n: number): typeof MOVIE {
  const minutes = Number((BigInt(n) * 2654435761n) % BigInt(MINUTES))
  const screenedDate = new Date(START + minutes * 60_000).toISOString().slice(0, 23)
  return { ...MOVIE, screenedDate }
}

/** POSTs `count` movies with 64 in flight, numbered from `first`. */
export async function seedOverHttp(url: string, count: number, first = 0): Promise<void> {
  let next = first
  const end = first + count
  const worker = async () => {
    while (next < end) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(seededMovie(next++)),
      })
      if (response.status !== 201) throw new Error(`seeding: POST answered ${response.status}`)
      await response.arrayBuffer()
    }
  }
  await Promise.all(Array.from({ length: 64 }, worker))
}

const generateId = createUuidV7Generator()

/**
 * Inserts `count` movies (numbered from `first`) into keyv's table, 500 rows a statement,
 * exactly as keyv stores them
 * (`movie-log:movie:<id>` -> serialised `{ value }`): SQLite commits each insert to disk, so one
 * POST per movie would take minutes at 100k.
 */
export async function seedSql(storeUrl: string, count: number, first = 0): Promise<void> {
  const keyv = await openStore(storeUrl)
  const adapter = keyv.store as { query: (sql: string, ...args: unknown[]) => Promise<unknown> }
  const postgres = storeUrl.startsWith('postgres')
  for (let done = 0; done < count; done += 500) {
    const rows: string[] = []
    for (let n = done; n < Math.min(count, done + 500); n++) {
      const id = generateId()
      rows.push(
        `movie-log:movie:${id}`,
        (await keyv.serializeData({ value: { id, ...seededMovie(first + n) } })) as string,
      )
    }
    const values = Array.from({ length: rows.length / 2 }, (_, n) =>
      postgres ? `($${2 * n + 1}, $${2 * n + 2})` : '(?, ?)',
    ).join(', ')
    const sql = `INSERT INTO keyv (key, value) VALUES ${values}`
    await (postgres ? adapter.query(sql, rows) : adapter.query(sql, ...rows))
  }
  await disconnect(keyv)
}

async function disconnect(keyv: Keyv): Promise<void> {
  await keyv.disconnect().catch(() => {})
}
