/**
 * Each owner's webhook endpoints, in the owner's own records (a household's owners never meet:
 * `logs.drop(owner)` takes them along), and, on a store of many owners, the store-wide list of
 * owners who registered any, which the deliverer reads. Both are versioned records changed by
 * compare-and-set (./versioned-record.ts).
 */
import { importTargetOf } from '../core/import-target'
import type { MovieLog, MovieLogs } from '../core/movie-log'
import { type LogRecords, recordsOf, storeRecordsOf } from '../core/records'
import type { ChangeReader } from '../core/watch'
import type { StoredEndpoint } from './endpoint'
import { readVersioned, updateVersioned } from './versioned-record'

const ENDPOINTS = 'webhooks:endpoints'
const OWNERS = 'webhooks:owners'

/** One owner's side of the webhooks: their records and their log's history. */
export interface OwnerWebhooks {
  /** The owner's name; `undefined` for the one diary of `createMovieLog`. */
  owner: string | undefined
  records: LogRecords
  history: ChangeReader
  /** The owner's log, whose `watch` wakes the deliverer. */
  log: MovieLog
}

/** Many logs (`createMovieLogs`) or the one log (`createMovieLog`). */
export const isMany = (source: MovieLog | MovieLogs): source is MovieLogs =>
  typeof (source as Partial<MovieLogs>).of === 'function'

/** The owner's side of `source`: the one log's, or with many logs, `owner`'s. */
export function ownerWebhooks(source: MovieLog | MovieLogs, owner?: string): OwnerWebhooks {
  if (isMany(source) !== (owner !== undefined)) {
    throw new TypeError(
      owner === undefined
        ? 'movie-log: webhooksOf(logs, owner) names the owner of a log among many'
        : 'movie-log: an owner is for many logs (createMovieLogs); one log has none',
    )
  }
  const log = isMany(source) ? source.of(owner as string) : source
  const target = importTargetOf(log)
  if (!target) throw new TypeError('movie-log: this log was not made by createMovieLog(s)')
  return { owner, records: recordsOf(log), history: target.driver, log }
}

/** The owner's endpoints, secrets included. */
export async function readEndpoints(records: LogRecords): Promise<StoredEndpoint[]> {
  const { text } = await readVersioned(records, ENDPOINTS)
  return text === undefined ? [] : (JSON.parse(text) as StoredEndpoint[])
}

/**
 * Changes the owner's endpoints: `change` answers the new list, or `undefined` to leave it.
 * Called again on a newer list when another writer changed it meanwhile.
 */
export async function updateEndpoints(
  records: LogRecords,
  change: (endpoints: StoredEndpoint[]) => StoredEndpoint[] | undefined,
): Promise<void> {
  await updateVersioned(records, ENDPOINTS, (text) => {
    const next = change(text === undefined ? [] : (JSON.parse(text) as StoredEndpoint[]))
    return next && JSON.stringify(next)
  })
}

/** Adds `owner` to the store's owners with webhooks, once. */
export async function noteOwner(logs: MovieLogs, owner: string): Promise<void> {
  await updateVersioned(storeRecordsOf(logs), OWNERS, (text) => {
    const owners = text === undefined ? [] : (JSON.parse(text) as string[])
    return owners.includes(owner) ? undefined : JSON.stringify([...owners, owner])
  })
}

/** The owners of a store who registered endpoints (some may have removed them since). */
export async function ownersWithWebhooks(logs: MovieLogs): Promise<string[]> {
  const { text } = await readVersioned(storeRecordsOf(logs), OWNERS)
  return text === undefined ? [] : (JSON.parse(text) as string[])
}

// Deliverers of this process, told at once when an endpoint is added or removed here (those of
// other processes read the change at their next refresh).
const listeners = new Set<() => void>()

/** Calls `listener` whenever an endpoint is added or removed in this process; returns its stop. */
export function whenEndpointsChange(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Tells this process's deliverers that endpoints changed. */
export function endpointsChanged(): void {
  for (const listener of listeners) listener()
}
