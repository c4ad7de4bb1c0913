import type { LogDriver } from './driver'

/**
 * What a method of the port does to the store, as a failure names it (`StoreUnavailableError`'s
 * operation); `terms` is a read of the search and statistics terms, which the guard has the
 * pending adds counted in for first, and names `list`.
 */
export type LogOperation = 'set' | 'get' | 'list' | 'replace' | 'delete' | 'claim' | 'terms'

/**
 * Every method of the port, by name, with what it does to the store. The `satisfies` is the
 * point: a method added to `LogDriver` and not here fails typecheck, so no wrapper made by
 * `wrapLog` can leave it out.
 * @example
 * LOG_METHODS.put // 'set'
 */
export const LOG_METHODS = {
  put: 'set',
  get: 'get',
  listAfter: 'list',
  listByDate: 'list',
  replace: 'replace',
  remove: 'delete',
  create: 'claim',
  read: 'claim',
  write: 'claim',
  changesAfter: 'list',
  latestChange: 'list',
  search: 'terms',
  searchPage: 'terms',
  tallies: 'terms',
  countTerms: 'set',
  countPending: 'list',
} as const satisfies Record<keyof LogDriver, LogOperation>

/** A method of the port, and the arguments it was called with. */
export type LogCall = (method: keyof LogDriver, args: unknown[]) => Promise<unknown>

/**
 * A log whose every method (those `LOG_METHODS` names) goes through `call`: one place for what
 * a wrapper does around each (a timeout, opening the store first), none to forget.
 * @example
 * const traced = wrapLog((method, args) => {
 *   console.log(method)
 *   return callLog(log, method, args)
 * })
 */
export function wrapLog(call: LogCall): Required<LogDriver> {
  const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const method of Object.keys(LOG_METHODS) as (keyof LogDriver)[]) {
    wrapped[method] = (...args) => call(method, args)
  }
  return wrapped as unknown as Required<LogDriver>
}

/**
 * Calls `method` of `log` with `args`. An optional method the driver lacks (`searchPage`,
 * `countTerms`, `countPending`) answers undefined: the caller does without it.
 * @example
 * await callLog(log, 'get', ['tt0111161'])
 */
export function callLog(
  log: LogDriver,
  method: keyof LogDriver,
  args: unknown[],
): Promise<unknown> {
  const own = log[method] as ((...args: unknown[]) => Promise<unknown>) | undefined
  return own ? own.apply(log, args) : Promise.resolve(undefined)
}
