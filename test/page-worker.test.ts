// Issue 35: `movie-log/page` on Cloudflare Workers. A Worker has no files to read the page
// from: under the workerd condition the package's page handler carries the built page in its
// bundle. A Worker bundled as wrangler bundles it, from the built package, run in workerd.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../src/page/server/serve'
import { tempFolders } from './_temp'
import { ownMiniflare } from './_worker'
import { WRANGLER_BUNDLE } from './_wrangler'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const tempFolder = tempFolders()
let worker: Miniflare

beforeAll(async () => {
  // An app of its own, `movie-log` installed (the built package, linked), outside this
  // checkout's tsconfig paths.
  const app = tempFolder('movie-log-page-worker-')
  mkdirSync(join(app, 'node_modules'))
  symlinkSync(ROOT, join(app, 'node_modules', 'movie-log'), 'dir')
  writeFileSync(
    join(app, 'worker.js'),
    `import { createMovieLog } from 'movie-log'
import { toPageHandler } from 'movie-log/page'
import { toWebHandler } from 'movie-log/web'
const api = toWebHandler(createMovieLog())
const page = toPageHandler({ api: '/movies', basePath: '/diary' })
export default { fetch: (r) => (new URL(r.url).pathname.startsWith('/movies') ? api(r) : page(r)) }`,
  )
  const bundled = await build({
    entryPoints: [join(app, 'worker.js')],
    ...WRANGLER_BUNDLE,
  })
  const path = join(app, 'bundle.js')
  writeFileSync(path, bundled.outputFiles?.[0]?.text ?? '')
  worker = ownMiniflare({
    modulesRoot: app,
    modules: [{ type: 'ESModule', path }],
    compatibilityDate: '2026-04-26',
    compatibilityFlags: ['nodejs_compat'],
    cf: false,
  })
  await worker.ready
}, 60_000)

afterAll(() => worker?.dispose())

const get = async (path: string) => {
  const response = await worker.dispatchFetch(`http://movie-log.test${path}`, {
    headers: { accept: 'text/html' },
  })
  return { response, text: await response.text() }
}

describe('movie-log/page on workerd', () => {
  it('serves the page with its assets and service worker, mounted and with its safe headers', async () => {
    const { response, text } = await get('/diary/')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    expect(text).toContain('<h1>Movie diary</h1>')
    expect(text).toContain('<meta name="movie-log-base" content="/diary">')
    const assets = [...text.matchAll(/(?:src|href)="(\/diary\/assets\/[^"]+)"/g)].map((m) => m[1])
    expect(assets).toHaveLength(2)
    for (const asset of assets) {
      const { response: answer, text: body } = await get(asset as string)
      expect(answer.status, asset).toBe(200)
      expect(body.length, asset).toBeGreaterThan(500)
    }
    const sw = await get('/diary/sw.js')
    expect(sw.response.status).toBe(200)
    expect(sw.text).toMatch(/^self\.MOVIE_LOG_SHELL=\{"version":"[^"]+","page":"\/diary\/"/)
    // The log beside it answers from the same Worker.
    const movies = await worker.dispatchFetch('http://movie-log.test/movies')
    expect(await movies.json()).toEqual([])
  })
})
