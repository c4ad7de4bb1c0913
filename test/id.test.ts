import { expect, it } from 'vitest'
import { createUuidV7Generator } from '../src/id'

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
})
