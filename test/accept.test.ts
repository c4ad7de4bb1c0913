import { expect, it } from 'vitest'
import { acceptsJson, listTypeOf, preferredType } from '../src/http/accept'

// The contract: where Accept ranks JSON and an export equally, JSON wins, whichever the header
// lists first (negotiator alone settles a tie by the header's order).
it.each([
  ['text/csv, application/json', 'json'],
  ['application/json, text/csv', 'json'],
  ['application/x-ndjson, application/json', 'json'],
  ['text/csv;q=0.8, application/json;q=0.8', 'json'],
  ['text/csv, application/json, application/x-ndjson', 'json'],
  ['text/csv, application/x-ndjson', 'ndjson'],
  ['text/csv;q=0.9, application/json;q=0.5, application/x-ndjson;q=0.9', 'ndjson'],
  ['text/csv, application/json;q=0.9', 'csv'],
  ['application/json;q=0.5, application/x-ndjson', 'ndjson'],
  ['text/csv, */*;q=0.1', 'csv'],
  ['*/*', 'json'],
  ['text/event-stream', 'events'],
  ['text/html', undefined],
])('answers %s with %s', (accept, type) => {
  expect(listTypeOf(accept)).toBe(type)
})

// Each answer is remembered for the headers seen last (clients repeat theirs): a header read
// again, after many others, is answered as it was read the first time.
it('answers a header read again as the first time, among more headers than it remembers', () => {
  const types: Record<string, string> = {
    'text/event-stream': 'events',
    'application/json': 'json',
    'application/x-ndjson': 'ndjson',
    'text/csv': 'csv',
  }
  const offers = Object.keys(types)
  const named = offers.filter((type) => type !== 'application/json')
  const ranges = ['text/csv', 'application/json', 'application/x-ndjson', 'text/html']
  const headers = Array.from(
    { length: 200 },
    (_, n) => `${ranges[n % 4]};q=0.${(n % 9) + 1}, ${ranges[(n + 1) % 4]};q=0.${9 - (n % 9)}`,
  )
  for (const order of [headers, [...headers].reverse(), headers]) {
    for (const header of order) {
      const type = preferredType(header, offers, named)
      expect(listTypeOf(header), header).toBe(type === undefined ? undefined : types[type])
      const json = preferredType(header, ['application/json']) !== undefined
      expect(acceptsJson(header), header).toBe(json)
    }
  }
})
