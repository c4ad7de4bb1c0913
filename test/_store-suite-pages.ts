import { randomUUID } from 'node:crypto'
import { InvalidPageRequestError } from 'movie-log'
import { expect, it } from 'vitest'
import { aMovie } from './_movies'
import { addMany, trapWalks, walkPages } from './_store-helpers'
import type { StoreSuiteContext } from './_store-suite'

/** Pages in the order added: each movie once, limits and cursors checked, from the index. */
export function describePageSuite({ backend, openLog, connect }: StoreSuiteContext): void {
  it('pages through 250 movies with every limit from 1 to 7, each movie once and in order', async () => {
    const log = await openLog()
    const added = await addMany(log, 250)
    const expected = added.map((movie) => movie.id)

    for (let limit = 1; limit <= 7; limit++) {
      expect(await walkPages(log, limit), `limit ${limit}`).toEqual(expected)
    }
  })

  it('gives each movie once while movies are added between pages', async () => {
    const log = await openLog()
    const before = await addMany(log, 20)
    const seen = await walkPages(log, 3, (ids) =>
      log.addMovie(aMovie({ title: `added during the walk ${ids.length}` })),
    )

    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.slice(0, 20)).toEqual(before.map((movie) => movie.id))
    const all = (await log.listMovies()).movies.map((movie) => movie.id)
    expect(seen).toEqual(all.slice(0, seen.length))
  })

  it('refuses a limit that is not a positive integer and a cursor it did not make', async () => {
    const log = await openLog()
    await addMany(log, 3)
    for (const limit of [0, -1, 1.5, Number.NaN]) {
      await expect(log.listMovies({ limit })).rejects.toBeInstanceOf(InvalidPageRequestError)
    }
    const { nextCursor } = await log.listMovies({ limit: 1 })
    expect(nextCursor).toEqual(expect.any(String))
    for (const cursor of ['', 'not-a-cursor', `${nextCursor}x`, btoa('movie-log/1:')]) {
      const error = await log.listMovies({ cursor }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidPageRequestError)
      expect((error as InvalidPageRequestError).issues[0]?.path).toBe('cursor')
    }
  })

  // Issue 55 item 9: a well-formed cursor with another movie's id was accepted (only malformed
  // ones were tried); the contract says a cursor the log did not make is 400.
  it('refuses a cursor edited to resume elsewhere, signed or not', async () => {
    const log = await openLog()
    const added = await addMany(log, 5)
    const { nextCursor } = await log.listMovies({ limit: 1 })
    const [payload = '', ...signature] = String(nextCursor).split('.')
    const fields = Buffer.from(payload, 'base64url').toString()
    expect(fields).toContain(JSON.stringify(added[0]?.id))
    const edited = Buffer.from(
      fields.replace(JSON.stringify(added[0]?.id), JSON.stringify(added[2]?.id)),
    ).toString('base64url')
    for (const cursor of [[edited, ...signature].join('.'), edited]) {
      const error = await log.listMovies({ limit: 1, cursor }).catch((e: unknown) => e)
      expect(error, cursor).toBeInstanceOf(InvalidPageRequestError)
      expect((error as InvalidPageRequestError).issues[0]?.path).toBe('cursor')
    }
    // The cursor as given still resumes where it was made.
    const next = await log.listMovies({ limit: 1, cursor: nextCursor })
    expect(next.movies.map((movie) => movie.id)).toEqual([added[1]?.id])
  })

  it('accepts a cursor made by another log on the same store, as its processes would', async () => {
    const namespace = `test-${randomUUID()}`
    const [first, second] = [
      await connect(await backend.open(namespace), { namespace }),
      await connect(await backend.open(namespace), { namespace }),
    ]
    const added = await addMany(first, 4)
    const [one, two] = [await first.listMovies({ limit: 2 }), await second.listMovies({ limit: 1 })]
    const fromSecond = await second.listMovies({ limit: 2, cursor: one.nextCursor })
    expect(fromSecond.movies.map((movie) => movie.id)).toEqual(added.slice(2).map((m) => m.id))
    const fromFirst = await first.listMovies({ limit: 1, cursor: two.nextCursor })
    expect(fromFirst.movies.map((movie) => movie.id)).toEqual([added[1]?.id])
  })

  it('orders by id as JavaScript compares strings, whatever the ids look like', async () => {
    const ids = ['b', 'B', '-x', 'a-b', 'a_b', 'ab', 'A', '0', 'é', 'Z~']
    const namespace = `test-${randomUUID()}`
    const log = await connect(await backend.open(namespace), {
      namespace,
      generateId: () => ids.shift() as string,
    })
    for (let n = 0; n < 10; n++) await log.addMovie(aMovie({ title: `Id ${n}` }))
    const expected = ['-x', '0', 'A', 'B', 'Z~', 'a-b', 'a_b', 'ab', 'b', 'é']
    expect((await log.listMovies()).movies.map((m) => m.id)).toEqual(expected)
    expect(await walkPages(log, 3)).toEqual(expected)
  })

  it.skipIf(backend.scans)('lists a page without iterating the whole store', async () => {
    const namespace = `test-${randomUUID()}`
    const store = await backend.open(namespace)
    const log = await connect(store, { namespace })
    const added = await addMany(log, 30)
    await log.listMovies({ limit: 1 })
    // From here, a full walk of the store fails: pages must come from the store's own index.
    const restore = trapWalks(store)
    try {
      const page = await log.listMovies({ limit: 5, cursor: null })
      expect(page.movies.map((m) => m.id)).toEqual(added.slice(0, 5).map((m) => m.id))
      const next = await log.listMovies({ limit: 5, cursor: page.nextCursor })
      expect(next.movies.map((m) => m.id)).toEqual(added.slice(5, 10).map((m) => m.id))
    } finally {
      restore()
    }
  })
}
