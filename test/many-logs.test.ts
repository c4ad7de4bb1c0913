// Issue 27: many diaries in one app, one store and one connection.

import { join } from 'node:path'
import KeyvSqlite from '@keyv/sqlite'
import {
  createMovieLog,
  createMovieLogs,
  InvalidOwnerError,
  NamespaceConflictError,
} from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()

describe('createMovieLogs', () => {
  it('keeps each owner to their own diary, whatever id another names', async () => {
    const logs = createMovieLogs()
    const alice = logs.of('alice')
    const alice2 = logs.of('alice2')
    const movie = await alice.addMovie(aMovie({ title: 'Heat' }))
    expect((await alice2.listMovies()).movies).toEqual([])
    expect(await alice2.getMovie(movie.id)).toBeUndefined()
    await expect(alice2.updateMovie(movie.id, { title: 'Taken' })).rejects.toThrow(/no movie/)
    expect(await alice2.deleteMovie(movie.id)).toBe(false)
    expect((await logs.of('alice').listMovies()).movies).toEqual([movie])
  })

  it('gives each owner a movie for one Idempotency-Key used by both', async () => {
    const logs = createMovieLogs()
    const first = await logs.of('a').addMovie(aMovie(), { idempotencyKey: 'shared-key' })
    const second = await logs.of('b').addMovie(aMovie(), { idempotencyKey: 'shared-key' })
    expect(second.id).not.toBe(first.id)
    expect((await logs.of('b').listMovies()).movies).toEqual([second])
  })

  it('drops one owner and nothing of another', async () => {
    const logs = createMovieLogs()
    await logs.of('gone').addMovie(aMovie())
    const kept = await logs.of('kept').addMovie(aMovie())
    await logs.drop('gone')
    expect((await logs.of('gone').listMovies()).movies).toEqual([])
    expect((await logs.of('kept').listMovies()).movies).toEqual([kept])
  })

  it('lists every owner with a movie, page after page of the driver, and not the one diary', async () => {
    const store = new Map()
    const one = createMovieLog(store)
    await one.addMovie(aMovie())
    const logs = createMovieLogs(store)
    const owners = Array.from({ length: 1001 }, (_, n) => `owner ${String(n).padStart(4, '0')}`)
    for (const owner of owners) await logs.of(owner).addMovie(aMovie())
    await logs.drop('owner 0500')
    const listed: string[] = []
    for await (const owner of logs.owners()) listed.push(owner)
    expect(listed).toEqual(owners.filter((owner) => owner !== 'owner 0500'))
  })

  it.each([
    ['an empty name', ''],
    ['a name past 256 characters', 'x'.repeat(257)],
    ['U+0000', 'a\u0000b'],
    ['a lone surrogate', 'a\ud800b'],
    ['not a string', 42 as unknown as string],
  ])('refuses %s as an owner', (_what, owner) => {
    const logs = createMovieLogs()
    expect(() => logs.of(owner)).toThrow(InvalidOwnerError)
  })

  it('takes 256 characters, counted as code points', () => {
    expect(() => createMovieLogs().of('🎬'.repeat(256))).not.toThrow()
  })
})

describe('a namespace set on the adapter', () => {
  it('is the log namespace: two adapters with two namespaces are two diaries', async () => {
    const file = `sqlite://${join(tempFolder('movie-log-namespaces-'), 'keyv.sqlite')}`
    const adapter = (namespace: string) => Object.assign(new KeyvSqlite(file), { namespace })
    const [u1, u2] = [adapter('u1'), adapter('u2')]
    try {
      const first = createMovieLog(u1)
      const second = createMovieLog(u2)
      const movie = await first.addMovie(aMovie())
      expect((await second.listMovies()).movies).toEqual([])
      expect((await createMovieLog(adapter('u1')).listMovies()).movies).toEqual([movie])
    } finally {
      await Promise.all([u1.disconnect(), u2.disconnect()])
    }
  })

  it('is refused when options.namespace says another', () => {
    expect(() =>
      createMovieLog({ namespace: 'u1', get: async () => undefined } as never, { namespace: 'u2' }),
    ).toThrow(NamespaceConflictError)
  })
})

describe('HTTP with many logs', () => {
  const request = (path: string, user?: string, init: RequestInit = {}) =>
    new Request(`http://movie-log.test${path}`, {
      ...init,
      headers: { ...(user ? { 'x-user': user } : {}), ...(init.headers as object) },
    })
  const handler = () =>
    toWebHandler(createMovieLogs(), {
      owner: async (request) => request.headers.get('x-user') ?? undefined,
    })

  it('serves each request the diary of the owner its host names, and 401 to none', async () => {
    const handle = handler()
    const post = (user: string) =>
      handle(
        request('/movies', user, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(aMovie()),
        }),
      )
    const added = await (await post('alice')).json()
    expect((await post('bob')).status).toBe(201)
    expect(await (await handle(request('/movies', 'alice'))).json()).toEqual([added])
    expect((await handle(request(`/movies/${added.id}`, 'bob'))).status).toBe(404)
    const anonymous = await handle(request('/movies'))
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toMatch(/Bearer/)
  })

  it('is refused without an owner function, and one log with one', () => {
    expect(() => toWebHandler(createMovieLogs())).toThrow(/need options.owner/)
    expect(() => toWebHandler(createMovieLog(), { owner: () => 'x' })).toThrow(/many logs/)
  })
})
