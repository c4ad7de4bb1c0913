import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { createMovieLogs } from 'movie-log'
import { toPageHandler } from 'movie-log/page'
import { describe, expect, it } from 'vitest'
import { createH3App } from '../examples/h3'
import { expectProblem } from './_http-helpers'

// movie-log/page without a browser: what toPageHandler answers, alone and mounted in an app.
const get = (handler: (request: Request) => Promise<Response>, path: string, headers = {}) =>
  handler(new Request(`http://app.test${path}`, { headers }))

describe('toPageHandler', () => {
  const handler = toPageHandler({ api: '/api/movies', basePath: '/diary' })

  it('serves the page for its mount: assets under the base path, the log where the app put it', async () => {
    for (const path of ['/diary', '/diary/', '/', '/index.html']) {
      const page = await get(handler, path)
      expect(page.status, path).toBe(200)
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(page.headers.get('cache-control')).toBe('no-cache')
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    }
    const html = await (await get(handler, '/diary/')).text()
    expect(html).toContain('<meta name="movie-log-api" content="/api/movies">')
    expect(html).toContain('<meta name="movie-log-base" content="/diary">')
    // Only this host, and no link to a /docs this app does not have.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
    expect(html).not.toContain('href="/docs"')
    const assets = [...html.matchAll(/(?:src|href)="(\/diary\/assets\/[^"]+)"/g)].map((m) => m[1])
    expect(assets).toHaveLength(2)
    for (const path of assets) {
      const asset = await get(handler, path as string)
      expect(asset.status, path).toBe(200)
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    }
  })

  it('sends text with brotli or gzip as the browser accepts, and plain to those that take neither', async () => {
    const plain = await (await get(handler, '/diary/')).text()
    const br = await get(handler, '/diary/', { 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toBe('accept-encoding')
    const brBytes = Buffer.from(await br.arrayBuffer())
    expect(brotliDecompressSync(brBytes).toString()).toBe(plain)
    expect(brBytes.length).toBeLessThan(plain.length / 2)
    const gzip = await get(handler, '/diary/', { 'accept-encoding': 'gzip, br;q=0' })
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(plain)
    const none = await get(handler, '/diary/', { 'accept-encoding': 'identity' })
    expect(none.headers.get('content-encoding')).toBe(null)
  })

  it('serves its service worker with the base path as its scope, listing the page to keep', async () => {
    const worker = await get(handler, '/diary/sw.js')
    expect(worker.status).toBe(200)
    expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(worker.headers.get('cache-control')).toBe('no-cache')
    expect(worker.headers.get('service-worker-allowed')).toBe('/diary')
    const shell = JSON.parse(/MOVIE_LOG_SHELL=(\{.*?\});/.exec(await worker.text())?.[1] ?? '')
    expect(shell.page).toBe('/diary/')
    // The diary's files, its share control included; not a share link's read-only script.
    expect(shell.assets).toEqual([
      expect.stringMatching(/^\/diary\/assets\/diary-\w+\.js$/),
      // The import panel's script and the share control, loaded when opened: kept too, so
      // they open offline.
      expect.stringMatching(/^\/diary\/assets\/import-panel-\w+\.js$/),
      expect.stringMatching(/^\/diary\/assets\/share-\w+\.js$/),
      expect.stringMatching(/^\/diary\/assets\/style-\w+\.css$/),
    ])
  })

  it('answers 404 for anything else, 405 for writes, and HEAD without a body', async () => {
    // Problem details, as every other error of the log (issue 61 item 6: a text/plain 404).
    for (const path of ['/diary/nope', '/diary/assets/nope.js', '/diary/assets/']) {
      const missing = await get(handler, path)
      expect((await expectProblem(missing, 404)).detail, path).toBe('Not found.')
    }
    const post = await handler(new Request('http://app.test/diary/', { method: 'POST' }))
    expect((await expectProblem(post, 405)).title).toBe('Method Not Allowed')
    expect(post.headers.get('allow')).toBe('GET, HEAD')
    const head = await handler(new Request('http://app.test/diary/', { method: 'HEAD' }))
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  it('serves a share link’s read-only page at {basePath}/s/<token>, its data from {api}/s/<token>', async () => {
    const logs = createMovieLogs()
    const { token } = await logs.of('alice').share({ index: true })
    const sharing = toPageHandler({ api: '/api/movies', basePath: '/diary', shares: logs })
    const page = await get(sharing, `/diary/s/${token}`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(page.headers.get('x-robots-tag')).toBeNull() // its owner let search engines in
    const html = await page.text()
    expect(html).toContain(`<meta name="movie-log-api" content="/api/movies/s/${token}/movies">`)
    expect(html).toContain(`href="/api/movies/s/${token}/ics"`)
    expect(html).toMatch(/src="\/diary\/assets\/shared-\w+\.js"/)
    expect(html).not.toMatch(/<form|diary-\w+\.js|name="robots"/)
    const etag = page.headers.get('etag') as string
    expect((await get(sharing, `/diary/s/${token}`, { 'if-none-match': etag })).status).toBe(304)
    // A token no link has, and any link on a handler not given the logs: the same 404.
    const unknown = await get(sharing, `/diary/s/${'A'.repeat(32)}`)
    expect((await expectProblem(unknown, 404)).detail).toBe('Not found.')
    expect(unknown.headers.get('x-robots-tag')).toBe('noindex')
    expect((await get(handler, `/diary/s/${token}`)).status).toBe(404)
    await logs.of('alice').unshare()
    expect((await get(sharing, `/diary/s/${token}`)).status).toBe(404)
  })

  it('refuses a log or a base path that is not a path on the page’s host', () => {
    expect(() => toPageHandler({ api: 'https://elsewhere.example/movies' })).toThrow(TypeError)
    expect(() => toPageHandler({ api: '//elsewhere.example/movies' })).toThrow(TypeError)
    expect(() => toPageHandler({ api: '/movies', basePath: 'diary' })).toThrow(TypeError)
  })
})

describe('examples/h3.ts: the page mounted beside the log', () => {
  it('serves the diary at /diary/ talking to /movies', async () => {
    const app = createH3App()
    const page = await app.fetch(new Request('http://app.test/diary/'))
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('<meta name="movie-log-api" content="/movies">')
    const script = /src="([^"]+)"/.exec(html)?.[1] as string
    expect(script).toMatch(/^\/diary\/assets\/diary-/)
    expect((await app.fetch(new Request(`http://app.test${script}`))).status).toBe(200)
    expect((await app.fetch(new Request('http://app.test/diary/sw.js'))).status).toBe(200)
    expect((await app.fetch(new Request('http://app.test/movies'))).status).toBe(200)
  })
})
