// Issue 18 across processes: two example servers on one Redis, and on one PostgreSQL. Edits and
// deletes acknowledged by one are what the other answers next; one If-Match, one winner.
import type { Movie } from 'movie-log'
import { versionOf } from 'movie-log/client'
import { afterEach, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { createPrivatePostgres } from './_postgres'
import { type ServerProcess, startPrivateRedis, startServerProcess, stop } from './_processes'
import { list, post } from './_server-client'
import { describeWith, type Need } from './_services'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function twoServers(storeUrl: string): Promise<[ServerProcess, ServerProcess]> {
  const start = async () => {
    const server = await startServerProcess({ MOVIE_LOG_STORE: storeUrl })
    cleanups.push(() => stop(server, 'SIGKILL'))
    return server
  }
  return [await start(), await start()]
}

const send = (url: string, method: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

async function addMany(url: string, count: number, date = (_n: number) => aMovie().screenedDate) {
  const added: Movie[] = []
  for (let n = 0; n < count; n++) {
    const response = await post(url, aMovie({ title: `M${n}`, screenedDate: date(n) }))
    expect(response.status).toBe(201)
    added.push((await response.json()) as Movie)
  }
  return added
}

function describeTwoServers(name: string, need: Need, openStore: () => Promise<string>) {
  describeWith(need, `two example servers on one ${name}: edits and deletes`, () => {
    it('lets exactly one of 50 concurrent PATCHes with one If-Match win: one 200, 49 412s', async () => {
      const servers = await twoServers(await openStore())
      const [movie] = await addMany(servers[0].url, 1)
      const etag = (await fetch(`${servers[1].url}/${movie!.id}`)).headers.get('etag') as string
      // The server process tags the movie as this process (and a browser, through the client) does.
      expect(etag).toBe(`"${versionOf(movie!)}"`)
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, n) =>
          send(
            `${servers[n % 2]!.url}/${movie!.id}`,
            'PATCH',
            { title: `Edit ${n}` },
            { 'if-match': etag },
          ),
        ),
      )
      const statuses = responses.map((response) => response.status)
      expect(statuses.filter((status) => status === 200)).toHaveLength(1)
      expect(statuses.filter((status) => status === 412)).toHaveLength(49)
      const winner = (await responses[statuses.indexOf(200)]!.json()) as Movie
      for (const server of servers) {
        expect(await (await fetch(`${server.url}/${movie!.id}`)).json()).toEqual(winner)
        expect(await list(server.url)).toEqual([winner])
      }
    })

    it('answers on one server what the other changed just before: edit, then delete', async () => {
      const [first, second] = await twoServers(await openStore())
      const [movie, other] = await addMany(first.url, 2)
      // Both have read the movie, alone and in the list, so any cache of theirs holds it.
      for (const server of [first, second]) {
        expect(await (await fetch(`${server.url}/${movie!.id}`)).json()).toEqual(movie)
        expect(await list(server.url)).toEqual([movie, other])
      }
      for (let n = 0; n < 5; n++) {
        const [writer, reader] = n % 2 ? [second, first] : [first, second]
        const edited = await send(`${writer.url}/${movie!.id}`, 'PATCH', { notes: `Edit ${n}` })
        expect(edited.status).toBe(200)
        const expected = (await edited.json()) as Movie
        const read = await fetch(`${reader.url}/${movie!.id}`)
        expect(await read.json()).toEqual(expected)
        expect(read.headers.get('etag')).toBe(edited.headers.get('etag'))
        expect(await list(reader.url)).toEqual([expected, other])
        expect(await (await fetch(`${reader.url}?limit=1`)).json()).toEqual([expected])
        expect(
          await (await fetch(`${reader.url}?sort=-screenedDate&limit=5`)).json(),
        ).toContainEqual(expected)
      }
      expect((await send(`${second.url}/${movie!.id}`, 'DELETE')).status).toBe(204)
      expect((await fetch(`${first.url}/${movie!.id}`)).status).toBe(404)
      expect(await list(first.url)).toEqual([other])
      expect(await (await fetch(`${first.url}?limit=1`)).json()).toEqual([other])
      expect((await send(`${first.url}/${movie!.id}`, 'DELETE')).status).toBe(404)
    })

    it('walks pages on one server while the other deletes: no repeats, every kept movie once', async () => {
      const [walker, deleter] = await twoServers(await openStore())
      const dates = (n: number) =>
        `2024-${String((n % 12) + 1).padStart(2, '0')}-0${(n % 7) + 1}T10:00:00.000`
      const added = await addMany(walker.url, 60, dates)
      for (const query of [
        'limit=7',
        'sort=-screenedDate&limit=7',
        'sort=screenedDate&from=2024-03&limit=5',
      ]) {
        const alive = new Set((await list(walker.url)).map((movie) => movie.id))
        const deleted = new Set<string>()
        const seen: string[] = []
        let next: string | undefined = `${walker.url}?${query}`
        while (next) {
          const response: Response = await fetch(next)
          seen.push(...((await response.json()) as Movie[]).map((movie) => movie.id))
          next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1]
          // Between pages, the other server deletes the last one seen and two not seen yet.
          const ahead = [...alive].filter((id) => !seen.includes(id) && !deleted.has(id))
          for (const id of [seen.at(-1), ahead[0], ahead.at(-1)]) {
            if (!id || deleted.has(id)) continue
            expect((await send(`${deleter.url}/${id}`, 'DELETE')).status).toBe(204)
            deleted.add(id)
          }
        }
        expect(new Set(seen).size, query).toBe(seen.length)
        const range = query.includes('from=2024-03')
        const kept = added.filter(
          (m) => alive.has(m.id) && !deleted.has(m.id) && (!range || m.screenedDate >= '2024-03'),
        )
        expect(seen.filter((id) => !deleted.has(id)).sort(), query).toEqual(
          kept.map((m) => m.id).sort(),
        )
        expect(deleted.size).toBeGreaterThan(3)
      }
    })

    it('brings back no movie when an add is retried after an edit or a delete on the other server', async () => {
      const [first, second] = await twoServers(await openStore())
      const body = aMovie({ title: 'Retried' })
      const retry = (server: ServerProcess) =>
        send(server.url, 'POST', body, { 'idempotency-key': '"add-once"' })
      const created = await retry(first)
      expect(created.status).toBe(201)
      const movie = (await created.json()) as Movie
      const edited = await send(`${second.url}/${movie.id}`, 'PATCH', { title: 'Corrected' })
      const corrected = (await edited.json()) as Movie
      const again = await retry(second)
      if (again.status < 300) expect(((await again.json()) as Movie).id).toBe(movie.id)
      expect(await list(first.url)).toEqual([corrected])
      expect(await list(second.url)).toEqual([corrected])
      expect((await send(`${first.url}/${movie.id}`, 'DELETE')).status).toBe(204)
      const afterDelete = await retry(second)
      if (afterDelete.status < 300) expect(((await afterDelete.json()) as Movie).id).toBe(movie.id)
      expect(await list(first.url)).toEqual([])
      expect(await list(second.url)).toEqual([])
      expect((await fetch(`${second.url}/${movie.id}`)).status).toBe(404)
    })
  })
}

describeTwoServers('Redis', 'redis-server', async () => {
  const redis = await startPrivateRedis()
  cleanups.push(() => stop(redis, 'SIGKILL'))
  return redis.url
})

describeTwoServers('PostgreSQL', 'POSTGRES_URL', async () => {
  const postgres = await createPrivatePostgres('edits')
  cleanups.push(() => postgres.drop())
  return postgres.url
})
