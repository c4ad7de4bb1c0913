import { H3 } from 'h3'
import { createMovieLog } from 'movie-log'
import { toH3Handler } from 'movie-log/h3'
import { toWebHandler } from 'movie-log/web'
import { expect, it } from 'vitest'
import { aMovie } from './_movies'

// Both logs make the same ids, so every answer can be compared to the byte.
function sameIds() {
  let n = 0
  return () => `00000000-0000-7000-8000-${String(++n).padStart(12, '0')}`
}

const requests: [string, RequestInit?][] = [
  [
    '/movies',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(aMovie()),
    },
  ],
  [
    '/movies',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(aMovie({ title: 'B' })),
    },
  ],
  ['/movies'],
  ['/movies?limit=1'],
  ['/movies/00000000-0000-7000-8000-000000000001'],
  ['/movies/00000000-0000-7000-8000-000000000009'],
  ['/movies', { method: 'HEAD' }],
  ['/movies', { method: 'DELETE' }],
  ['/movies', { headers: { accept: 'text/html' } }],
  ['/movies', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }],
  [
    '/movies',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":1}' },
  ],
  ['/movies?limit=0'],
]

it('the h3 handler answers byte-for-byte like the web handler', async () => {
  const web = toWebHandler(createMovieLog(undefined, { generateId: sameIds() }))
  const app = new H3({ silent: true }).mount(
    '/movies',
    toH3Handler(createMovieLog(undefined, { generateId: sameIds() })),
  )
  for (const [path, init] of requests) {
    const [fromWeb, fromH3] = [
      await web(new Request(`http://movie-log.test${path}`, init)),
      await app.fetch(new Request(`http://movie-log.test${path}`, init)),
    ]
    const label = `${init?.method ?? 'GET'} ${path}`
    expect(fromH3.status, label).toBe(fromWeb.status)
    expect([...fromH3.headers], label).toEqual([...fromWeb.headers])
    expect(await fromH3.text(), label).toBe(await fromWeb.text())
  }
})
