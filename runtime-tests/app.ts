/**
 * What every runtime under test serves: the log as a user mounts it (`movie-log`,
 * `movie-log/web`), many diaries on one store, each test on a fresh one named by its
 * `x-test-owner` header. `x-test-options` carries the handler options a test sets (JSON: its
 * `maxPageSize`, `maxBodyBytes`), one handler per distinct set.
 */
import { createMovieLogs, type MovieLogs } from 'movie-log'
import { type MovieLogHttpOptions, toWebHandler } from 'movie-log/web'

type Store = Parameters<typeof createMovieLogs>[0]
type Handler = (request: Request) => Promise<Response>

// Only options that JSON can carry; a test whose options are functions runs in-process only.
const SETTABLE = new Set(['maxPageSize', 'maxBodyBytes', 'basePath'])

export function createTestApp(store: Store): Handler {
  const handlerFor = testHandlers(store, toWebHandler)
  return (request) => handlerFor(request.headers.get('x-test-options'))(request)
}

/**
 * The handler for a test's `x-test-options` (its header's value), made by `mount` (an adapter's
 * `toWebHandler`, `toNodeHandler`) over the app's diaries, once per distinct set.
 */
export function testHandlers<H>(
  store: Store,
  mount: (logs: MovieLogs, options: MovieLogHttpOptions) => H,
): (options: string | null | undefined) => H {
  const logs = createMovieLogs(store)
  const owner = (request: Request) => request.headers.get('x-test-owner') ?? undefined
  const handlers = new Map<string, H>()
  return (key = '{}') => {
    let handler = handlers.get(key ?? '{}')
    if (!handler) {
      const options = JSON.parse(key ?? '{}') as MovieLogHttpOptions
      for (const name of Object.keys(options)) {
        if (!SETTABLE.has(name)) throw new TypeError(`x-test-options: ${name} cannot be set`)
      }
      handler = mount(logs, { ...options, owner })
      handlers.set(key ?? '{}', handler)
    }
    return handler
  }
}
