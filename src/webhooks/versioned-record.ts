/**
 * A small document kept in a log's records and changed by compare-and-set, built on the one
 * atomic step every store gives records: create-if-absent. Each version is a record of its own,
 * `<name>:v<n>`; a change creates version n + 1, which only one writer can do, so two owners
 * registering endpoints at once through two processes never lose one another's (the loser reads
 * again and retries). `<name>:head` says which version is the latest, as a hint: a reader goes
 * on from it while a later version exists, and puts it right.
 */
import type { LogRecords } from '../core/records'

/** A kept document outlives any server: a century. */
export const KEEP_MS = 100 * 365 * 24 * 3600 * 1000
// A superseded version stays a day, for a reader whose head is behind; then the store forgets it.
const SUPERSEDED_MS = 24 * 3600 * 1000
// Writers racing for one document: past this many lost rounds, the caller hears of it.
const ROUNDS = 8

interface Read {
  version: number
  text: string | undefined
}

/** The latest version of the document `name` (version 0, no text: none yet). */
export async function readVersioned(records: LogRecords, name: string): Promise<Read> {
  const head = Number((await records.read(`${name}:head`)) ?? 0)
  let version = Number.isSafeInteger(head) && head > 0 ? head : 0
  let text = version > 0 ? await records.read(`${name}:v${version}`) : undefined
  for (;;) {
    const next = await records.read(`${name}:v${version + 1}`)
    if (next === undefined) break
    version++
    text = next
  }
  if (version !== head) await records.write(`${name}:head`, String(version), KEEP_MS)
  return { version, text }
}

/**
 * Changes the document `name`: `change` gets its text (`undefined` when there is none) and
 * answers the next text, or `undefined` to leave it as it is. Called again with the newer text
 * when another writer changed it meanwhile. Resolves to the text kept.
 */
export async function updateVersioned(
  records: LogRecords,
  name: string,
  change: (text: string | undefined) => string | undefined,
): Promise<string | undefined> {
  for (let round = 0; round < ROUNDS; round++) {
    const { version, text } = await readVersioned(records, name)
    const next = change(text)
    if (next === undefined) return text
    if (!(await records.create(`${name}:v${version + 1}`, next, KEEP_MS))) continue
    await records.write(`${name}:head`, String(version + 1), KEEP_MS)
    if (text !== undefined) await records.write(`${name}:v${version}`, text, SUPERSEDED_MS)
    return next
  }
  throw new Error(`movie-log: ${name} is being changed by too many writers at once; try again`)
}
