import { createMovieLog, type Movie, type MovieLog, versionOf } from 'movie-log'
import type { MovieLogHttpOptions } from 'movie-log/web'
import { afterEach, expect } from 'vitest'
import type { HttpTarget, HttpTargetFactory } from './_http-targets'

export const JSON_HEADERS = { 'content-type': 'application/json' }
export const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' }

/** The ETag of a movie: its version tag, quoted. */
export const etagOf = (movie: Movie) => `"${versionOf(movie)}"`

/** PATCH and DELETE of one movie on a target. */
export const editing = {
  patch: (
    http: HttpTarget,
    id: string,
    body: unknown,
    headers: Record<string, string> = MERGE_PATCH,
  ) =>
    http.fetch(`/movies/${id}`, {
      method: 'PATCH',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  remove: (http: HttpTarget, id: string, headers: Record<string, string> = {}) =>
    http.fetch(`/movies/${id}`, { method: 'DELETE', headers }),
}

/** A `serve` for one target of a `describe.each(HTTP_TARGETS)`, closed after each test. */
export function servingWith(createTarget: HttpTargetFactory) {
  let target: HttpTarget | undefined
  afterEach(() => target?.close())
  return async (log: MovieLog = createMovieLog(), options?: MovieLogHttpOptions) => {
    target = await createTarget(log, options)
    return { log, http: target }
  }
}

/** Checks an answer is an RFC 9457 problem with `status` and no internals; returns it. */
export async function expectProblem(response: Response, status: number) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toBe('application/problem+json')
  const problem = await response.json()
  expect(problem).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
  })
  expect(JSON.stringify(problem)).not.toMatch(/\bat .+:\d+:\d+|node_modules|stack/)
  return problem
}

/** The URL of a `Link: <...>; rel="next"` header, relative to `origin`, or `undefined`. */
export function nextLink(response: Response, origin: string): string | undefined {
  const url = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1]
  if (url === undefined) return undefined
  expect(url.startsWith(`${origin}/movies?`)).toBe(true)
  return url.slice(origin.length)
}
