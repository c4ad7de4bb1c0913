// Issue 37: a fuzz run of the HTTP contract on every adapter. Random methods, paths, query
// strings, headers and bodies: never a 500, never a stack or a parser's message, every error
// RFC 9457 problem details, and every answer within seconds.
import fc from 'fast-check'
import { createMovieLog } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { UNCHECKED_HTTP_TARGETS } from './_http-targets'
import { aMovie } from './_movies'
import { anyText } from './_text'

// More runs where CI has the time; a local run stays within seconds.
const NUM_RUNS = process.env.CI === 'true' ? 6000 : 200
const ANSWER_MS = 5000
const INTERNALS =
  /\bat .+:\d+:\d+|node_modules|\bstack\b|SyntaxError|Unexpected token|JSON at position/i

const printable = (maxLength = 40) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength,
  })

const method = fc.constantFrom(
  'GET',
  'GET',
  'HEAD',
  'POST',
  'POST',
  'PATCH',
  'DELETE',
  'PUT',
  'OPTIONS',
)
// Paths an h3 app in front answers itself, before the mounted log sees them: a malformed URL
// (`/%zz`) or one whose dot segments leave the mount. Those answers are the app's (its
// `onError`); the log's own h3 app and the server turn them into problem details.
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/
function answeredByHost(path: string): boolean {
  try {
    return DOT_SEGMENT.test(decodeURI(path))
  } catch {
    return true
  }
}
const segment = (hostInFront: boolean) =>
  fc
    .oneof(
      fc.constantFrom('', '/', '/openapi.json', '/%zz', '/%', '/a/b', '//', '/..', '/%2F', '/%00'),
      anyText({ maxLength: 20 }).map((text) => `/${encodeURIComponent(text)}`),
      printable(20).map((text) => `/${text.replace(/[?#]/g, '')}`),
    )
    .filter((path) => !hostInFront || !answeredByHost(path))
const queryValue = fc.oneof(
  anyText({ maxLength: 30 }),
  fc.constantFrom('1', '0', '-1', '1000000', 'added', '-screenedDate', '2024', '2024-02-30', '1-0'),
  fc
    .string({ maxLength: 60 })
    .map((text) => Buffer.from(`movie-log/2:${text}`).toString('base64url')),
)
const query = fc
  .dictionary(
    fc.constantFrom('limit', 'cursor', 'sort', 'from', 'to', 'lastEventId', 'x'),
    queryValue,
    { maxKeys: 4 },
  )
  .map((params) => {
    const text = new URLSearchParams(params).toString()
    return text === '' ? '' : `?${text}`
  })
const accept = fc.oneof(
  fc.constantFrom(
    'application/json',
    '*/*',
    'text/html',
    'text/csv',
    'application/x-ndjson',
    'text/event-stream',
    'text/csv;q=0.5, application/json;q=0.5',
    'application/json;q=0, */*;q=0.1',
    'application/*;q=abc',
    ';;,,q=',
  ),
  printable(),
)
const headers = fc.record(
  {
    accept,
    'content-type': fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'application/merge-patch+json',
        'text/plain',
      ),
      printable(),
    ),
    'if-match': fc.oneof(fc.constantFrom('*', '"x"', 'W/"x"'), printable()),
    'if-none-match': printable(),
    'last-event-id': fc.oneof(fc.constantFrom('1', '0-1', '1-0'), printable()),
    'idempotency-key': printable(),
    origin: fc.constantFrom('http://evil.example', 'null'),
  },
  { requiredKeys: [] },
)
const body = fc.oneof(
  fc.constant(undefined),
  fc.constant(JSON.stringify(aMovie())),
  fc.json({ maxDepth: 2 }),
  fc
    .record({
      title: anyText({ maxLength: 40 }),
      notes: anyText({ maxLength: 40 }),
      releaseYear: fc.integer(),
    })
    .map((movie) => JSON.stringify({ ...aMovie(), ...movie })),
  anyText({ maxLength: 60 }),
)
const request = (hostInFront: boolean) =>
  fc.record({ method, segment: segment(hostInFront), query, headers, body })

describe.each(UNCHECKED_HTTP_TARGETS)('HTTP fuzz: %s', (name, createTarget) => {
  const hostInFront = name === 'h3 app' || name === 'listening server'
  it(`answers ${NUM_RUNS} random requests with no 500, no internals, problem+json errors`, async () => {
    const log = createMovieLog()
    const movie = await log.addMovie(aMovie())
    const http = await createTarget(log, { cors: ['http://allowed.example'] })
    try {
      await fc.assert(
        fc.asyncProperty(request(hostInFront), fc.boolean(), async (each, existing) => {
          const path = `/movies${existing && each.segment === '' ? `/${movie.id}` : each.segment}${each.query}`
          const withBody = each.method !== 'GET' && each.method !== 'HEAD'
          const init: RequestInit = {
            method: each.method,
            headers: each.headers as Record<string, string>,
            body: withBody ? each.body : undefined,
          }
          const response = await answered(http.fetch(path, init))
          const type = response.headers.get('content-type') ?? ''
          // A feed never ends by itself: its answer is enough.
          const text = type.startsWith('text/event-stream')
            ? await (response.body?.cancel() ?? Promise.resolve()).then(() => '')
            : await response.text()
          expect(response.status, `${each.method} ${path}`).toBeLessThan(500)
          if (response.status >= 400) {
            expect(text).not.toMatch(INTERNALS)
            expect(type, `${each.method} ${path} ${response.status}`).toBe(
              'application/problem+json',
            )
            if (each.method !== 'HEAD') {
              const problem = JSON.parse(text as string)
              expect(problem).toMatchObject({ type: expect.any(String), status: response.status })
              expect(text).not.toContain('movie-log.test')
            }
          }
        }),
        { numRuns: NUM_RUNS },
      )
    } finally {
      await http.close()
    }
  }, 120_000)
})

/** The response, or a failure when none comes within ANSWER_MS: a hang is a finding. */
async function answered(response: Promise<Response>): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_MS} ms`)), ANSWER_MS)
  })
  try {
    return await Promise.race([response, late])
  } finally {
    clearTimeout(timer)
  }
}
