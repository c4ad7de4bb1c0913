// The share feeds' revisions (src/http/share/revisions.ts): an edit grows an entry's sequence,
// an unchanged fetch writes nothing, and an id like `__proto__` (a log's own ids) is an entry.
import { describe, expect, it } from 'vitest'
import type { Movie } from '../src/core/movie'
import type { LogRecords } from '../src/core/records'
import { revisionsOf } from '../src/http/share/revisions'
import { aMovie } from './_movies'

function memoryRecords() {
  const kept = new Map<string, string>()
  let writes = 0
  const records = {
    read: async (key: string) => kept.get(key),
    write: async (key: string, value: string) => {
      writes++
      kept.set(key, value)
    },
  } as unknown as LogRecords
  return { records, writes: () => writes }
}

describe('share feed revisions', () => {
  it('counts edits per entry, writes only on change, and keeps any id apart', async () => {
    const { records, writes } = memoryRecords()
    const odd = { ...aMovie(), id: '__proto__' } as Movie
    const plain = { ...aMovie(), id: 'plain' } as Movie
    const first = await revisionsOf(records, [odd, plain], 1000)
    expect(first.of('__proto__')).toEqual({ sequence: 0, since: 1000 })
    expect(writes()).toBe(1)
    await revisionsOf(records, [odd, plain], 2000)
    expect(writes()).toBe(1)
    const edited = { ...odd, notes: 'changed' } as Movie
    const later = await revisionsOf(records, [edited, plain], 3000)
    expect(later.of('__proto__')).toEqual({ sequence: 1, since: 3000 })
    expect(later.of('plain')).toEqual({ sequence: 0, since: 1000 })
    expect(later.changedAt).toBe(3000)
  })
})
