import { expect, it } from 'vitest'
import { listTypeOf } from '../src/http/accept'

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
