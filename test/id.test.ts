import { expect, it } from 'vitest'
import { createUuidV7Generator } from '../src/core/id'

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const START = Date.parse('2024-05-01T20:30:00.000Z')

it('makes RFC 9562 UUIDv7 ids, unique and in order, across many refills of its random pool', () => {
  // Ten ids per millisecond, and now and then a clock that steps back a second.
  let calls = 0
  const clock = () => START + Math.floor(calls++ / 10) - (calls % 997 === 0 ? 1000 : 0)
  const generate = createUuidV7Generator(clock)
  const ids = Array.from({ length: 20_000 }, () => generate())
  for (const id of ids) expect(id).toMatch(UUID_V7)
  expect(new Set(ids).size).toBe(ids.length)
  expect(ids.every((id, index) => index === 0 || (ids[index - 1] as string) < id)).toBe(true)
  // The first 48 bits are the clock's milliseconds.
  const time = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)
  expect(time(ids[0] as string)).toBe(START)
  expect(time(ids.at(-1) as string)).toBe(START + 1999)
  // rand_a holds the counter: the second id of a millisecond counts one past the first.
  const counter = (id: string) => Number.parseInt(id.slice(15, 18), 16)
  expect(counter(ids[1] as string)).toBe(counter(ids[0] as string) + 1)
  // The last 62 bits come from the random pool: no two ids share them.
  expect(new Set(ids.map((id) => id.slice(19))).size).toBe(ids.length)
  // ...each byte drawn on its own: no byte of the random part copies another in every id.
  const bytes = ids.map((id) => id.replaceAll('-', '').slice(16).match(/../g) as string[])
  for (let i = 0; i < 8; i++) {
    for (let j = i + 1; j < 8; j++) expect(bytes.some((b) => b[i] !== b[j])).toBe(true)
  }
})

it('gives each generator its own clock when ids of two clocks interleave', () => {
  // Generators share the buffer ids are written in: each id must still carry its own time.
  const time = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)
  const early = createUuidV7Generator(() => START)
  const late = createUuidV7Generator(() => START + 86_400_000)
  for (let i = 0; i < 3; i++) {
    expect(time(early())).toBe(START)
    expect(time(late())).toBe(START + 86_400_000)
  }
})
