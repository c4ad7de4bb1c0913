/** Fills a running server's store with movies: over HTTP, or in SQL batches for SQL stores. */

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
