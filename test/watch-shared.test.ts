import { createMovieLogs, type MovieLogs, registerStoreOpener, type StoreDriver } from 'movie-log'
import { afterEach, describe, expect, it } from 'vitest'
import { driverForKeyv, toKeyv } from '../src/drivers'
import { aMovie } from './_movies'
import { latestChangeOf, type OpenWatch, openWatch } from './_watch-helpers'

/** A memory store whose history reads and wake-up listeners are counted, by owner. */
function countingStore(scheme: string) {
  const counts = { changesAfter: new Map<string, number>(), listeners: new Map<string, number>() }
  const bump = (map: Map<string, number>, owner: string, by = 1) =>
    map.set(owner, (map.get(owner) ?? 0) + by)
  registerStoreOpener({
    schemes: [scheme],
    remote: false,
    open: async () => {
      const driver = driverForKeyv(toKeyv(new Map(), scheme))
      return {
        ...driver,
        log: (owner) => {
          const log = driver.log(owner)
          return {
            ...log,
            changesAfter: (after, limit) => {
              bump(counts.changesAfter, owner)
              return log.changesAfter(after, limit)
            },
          }
        },
        onChange: (owner, wake) => {
          bump(counts.listeners, owner)
          const stop = driver.onChange(owner, wake)
          return () => {
            bump(counts.listeners, owner, -1)
            stop()
          }
        },
      } satisfies StoreDriver
    },
  })
  return counts
}

let opened: { logs: MovieLogs; watches: OpenWatch[] } | undefined
afterEach(async () => {
  await Promise.all(opened?.watches.map((watch) => watch.close()) ?? [])
  await opened?.logs.close()
  opened = undefined
})

function open(scheme: string) {
  const counts = countingStore(scheme)
  const logs = createMovieLogs(`${scheme}://`)
  opened = { logs, watches: [] }
  /** `count` watches of `owner`, each on a log of its own (as a server makes one per request). */
  const watch = (owner: string, count: number, after?: string) => {
    const watches = Array.from({ length: count }, () => openWatch(logs.of(owner), { after }))
    opened?.watches.push(...watches)
    return watches
  }
  return { counts, logs, watch }
}

describe('the watches of one owner in a process share their reads (issue 29)', () => {
  it('reads the history once per change for 200 watches, with one listener on the store', async () => {
    const { counts, logs, watch } = open('shared-reads')
    const after = await latestChangeOf(logs.of('ann'))
    counts.changesAfter.set('ann', 0)
    const reading = watch('ann', 200, after).map((one) => one.next())
    const added = await logs.of('ann').addMovie(aMovie({ title: 'Seen by all' }))
    const changes = await Promise.all(reading)
    for (const change of changes) expect(change).toMatchObject({ type: 'added', movie: added })
    // One read when they began (all at one place), one after the change: not 200 of each.
    expect(counts.changesAfter.get('ann')).toBeLessThanOrEqual(2)
    expect(counts.listeners.get('ann')).toBe(1)
    // The same frozen object for every watch: the HTTP feed encodes it once, and no consumer
    // can change what the others see.
    expect(new Set(changes).size).toBe(1)
    expect(Object.isFrozen(changes[0])).toBe(true)
  })

  it("never hands one owner's changes to another's watches", async () => {
    const { logs, watch } = open('shared-owners')
    const [ann] = watch('ann', 1, await latestChangeOf(logs.of('ann')))
    const [bob] = watch('bob', 1, await latestChangeOf(logs.of('bob')))
    const bobs = bob?.next()
    const annsMovie = await logs.of('ann').addMovie(aMovie({ title: "Ann's" }))
    expect(await ann?.next()).toMatchObject({ type: 'added', movie: annsMovie })
    const bobsMovie = await logs.of('bob').addMovie(aMovie({ title: "Bob's" }))
    expect(await bobs).toMatchObject({ type: 'added', movie: bobsMovie })
  })

  it('gives a watch opened later from an earlier point every change since, not a read kept from before', async () => {
    const { logs, watch } = open('shared-later')
    const log = logs.of('ann')
    const start = await latestChangeOf(log)
    const [early] = watch('ann', 1, start)
    const first = early?.next()
    const one = await log.addMovie(aMovie({ title: 'One' }))
    expect(await first).toMatchObject({ movie: one })
    const second = early?.next()
    const two = await log.addMovie(aMovie({ title: 'Two' }))
    expect(await second).toMatchObject({ movie: two })
    const [late] = watch('ann', 1, start)
    const changes = await late?.take(2)
    expect(changes?.map((change) => change.type === 'added' && change.movie.title)).toEqual([
      'One',
      'Two',
    ])
  })

  it("lets go of the store's listener when an owner's last watch ends", async () => {
    const { counts, logs, watch } = open('shared-release')
    const watches = watch('ann', 3, await latestChangeOf(logs.of('ann')))
    const reading = watches.map((one) => one.next())
    await logs.of('ann').addMovie(aMovie({ title: 'Wakes them' }))
    await Promise.all(reading)
    expect(counts.listeners.get('ann')).toBe(1)
    await Promise.all(watches.map((one) => one.close()))
    expect(counts.listeners.get('ann')).toBe(0)
    // A new watch listens again, and is woken.
    const [again] = watch('ann', 1, await latestChangeOf(logs.of('ann')))
    const next = again?.next()
    const added = await logs.of('ann').addMovie(aMovie({ title: 'Heard' }))
    expect(await next).toMatchObject({ movie: added })
  })
})
