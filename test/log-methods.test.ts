import { expect, it, vi } from 'vitest'
import type { LogDriver, StoreDriver } from '../src/core/driver'
import { guardLog } from '../src/core/guard'
import { lazyStore } from '../src/core/lazy-store'
import { LOG_METHODS } from '../src/core/log-methods'

// Issue 56: the guard and the store opened on first use wrap every method of the port through
// one helper (core/log-methods.ts), whose table of methods typecheck holds to `LogDriver`.
const methods = Object.keys(LOG_METHODS) as (keyof LogDriver)[]

// A log whose every method answers its name and arguments; none is left to count.
function echoLog(): LogDriver {
  const log: Record<string, unknown> = {}
  for (const method of methods) {
    log[method] = vi.fn(async (...args: unknown[]) =>
      method === 'countPending' ? 0 : [method, ...args],
    )
  }
  return log as unknown as LogDriver
}

const store = (log: LogDriver) =>
  ({ remote: false, classifyFailure: () => undefined, log: () => log }) as unknown as StoreDriver

const lazy = (log: LogDriver) =>
  lazyStore(
    'echo',
    false,
    async () => store(log),
    () => undefined,
  )
const wrappers: [string, (log: LogDriver) => LogDriver][] = [
  ['guardLog', (log) => guardLog(log, store(log), 1000)],
  ['lazyStore', (log) => lazy(log).log('')],
  // As createMovieLog(url) has it: the guard over a store opened on first use.
  ['guardLog over lazyStore', (log) => guardLog(lazy(log).log(''), lazy(log), 1000)],
]

it.each(wrappers)('%s passes every method of the port on, with its arguments', async (_, wrap) => {
  const log = echoLog()
  const wrapped = wrap(log) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
  for (const method of methods) {
    const args = [`${method}-a`, 2]
    const answer = await wrapped[method]?.(...args)
    if (method !== 'countPending') expect(answer, method).toEqual([method, ...args])
    expect(log[method], method).toHaveBeenCalledWith(...args)
  }
})

it.each(wrappers)(
  '%s answers undefined for an optional method the driver lacks',
  async (_, wrap) => {
    const log = echoLog()
    delete log.searchPage
    delete log.countTerms
    delete log.countPending
    const wrapped = wrap(log)
    await expect(wrapped.searchPage?.({ words: [] } as never, {} as never, 1)).resolves.toBe(
      undefined,
    )
    await expect(wrapped.countTerms?.()).resolves.toBe(undefined)
    // A search goes on without the count first.
    await expect(wrapped.search({ words: [] } as never, 1)).resolves.toEqual([
      'search',
      { words: [] },
      1,
    ])
  },
)
