import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Movie } from 'movie-log'
import { describe, expect, inject, it } from 'vitest'
import { httpContract } from '../_http-suite'
import { aMovie } from '../_movies'
import { expectClientChecks, makeApp, remoteTarget, servedBy } from '../_runtimes'
import { tempFolders } from '../_temp'
import { bundleWorker, readWranglerToml, serveWorkers } from '../_worker'

// The HTTP suite against runtime-tests/worker*.ts, bundled as wrangler bundles them and run by
// workerd (Miniflare) on a port, on memory and on D1 (local); and the client run in workerd
// against it, through a service binding.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const tempFolder = tempFolders()
// What a store's client brings into a bundle: none of it belongs in a Worker on memory.
const STORE_CLIENT =
  /node_modules\/(pg|pg-[a-z-]+|pgpass|redis|@redis\/[a-z-]+|sqlite3|@keyv\/(redis|sqlite|postgres))\/|dist\/(sqlite|postgres|redis)[-.]/

const app = () => makeApp(tempFolder('runtime-workerd-'))

describe.each([
  ['memory', 'worker.ts'],
  ['d1', 'worker-d1.ts'],
])('workerd on %s', (storeName, entry) => {
  const served = servedBy(async () => {
    const folder = app()
    const [bundle, client] = await Promise.all([
      bundleWorker(join(folder, entry)),
      bundleWorker(join(folder, 'worker-client.ts')),
    ])
    console.log(`Worker on ${storeName}: ${bundle.code.length} bytes, ${bundle.gzipBytes} gzipped`)
    return serveWorkers([
      { name: 'app', code: bundle.code, d1: ['DB'] },
      { name: 'client', code: client.code, services: { APP: 'app' } },
    ])
  })
  /** A request to runtime-tests/worker-client.ts, the Worker beside the app. */
  const askClient = async (path: string) => {
    // Miniflare's Fetcher: its types are workerd's, not this process's fetch.
    const client = (await served().mf.getWorker('client')) as unknown as {
      fetch(url: string): Promise<Response>
    }
    return client.fetch(`http://client${path}`)
  }
  describe('HTTP contract', () =>
    httpContract(
      `workerd, ${storeName}`,
      remoteTarget(() => served().origin),
      'remote',
      // workerd closes connections as it sees fit: a 413's `Connection: close` is not sent.
      { dropsConnectionHeader: true },
    ))

  it('runs the client in workerd against it', async () => {
    const response = await askClient('/')
    expectClientChecks(await response.json())
  })

  it('refuses the stores a Worker has no client for with UnsupportedStoreError', async () => {
    const answers = (await (await askClient('/unsupported')).json()) as {
      url: string
      name: string
      message: string
    }[]
    expect(answers.map(({ url, name }) => [url.split(':')[0], name])).toEqual([
      ['sqlite', 'UnsupportedStoreError'],
      ['postgres', 'UnsupportedStoreError'],
      ['redis', 'UnsupportedStoreError'],
    ])
    for (const { url, message } of answers) expect(message).toContain(url.split(':')[0])
  })
})

describe('the Worker bundle', () => {
  it('holds no store client on memory', async () => {
    const { inputs } = await bundleWorker(join(app(), 'worker.ts'))
    expect(inputs.some((input) => /dist\/web\.js$/.test(input))).toBe(true)
    expect(inputs.filter((input) => STORE_CLIENT.test(input))).toEqual([])
  })

  it('holds the D1 driver and no other store client on D1', async () => {
    const { inputs } = await bundleWorker(join(app(), 'worker-d1.ts'))
    expect(inputs.some((input) => /dist\/d1[-.]/.test(input))).toBe(true)
    expect(inputs.filter((input) => STORE_CLIENT.test(input))).toEqual([])
  })
})

// examples/cloudflare-worker as `wrangler deploy --dry-run` would bundle it in a user's app: the
// packed tarball unpacked as npm installs it, the example's wrangler.toml read for the Worker.
describe('examples/cloudflare-worker, from the packed tarball', () => {
  const served = servedBy(async () => {
    const folder = tempFolder('example-worker-')
    mkdirSync(join(folder, 'node_modules'))
    execFileSync('tar', ['-xzf', inject('tarball'), '-C', join(folder, 'node_modules')])
    renameSync(join(folder, 'node_modules', 'package'), join(folder, 'node_modules', 'movie-log'))
    cpSync(join(ROOT, 'examples', 'cloudflare-worker'), folder, { recursive: true })
    const { main, ...worker } = readWranglerToml(
      readFileSync(join(folder, 'wrangler.toml'), 'utf8'),
    )
    // movie-log's own dependencies from this repository's node_modules, as npm would put them.
    const bundle = await bundleWorker(join(folder, main), [join(ROOT, 'node_modules')])
    console.log(
      `examples/cloudflare-worker: ${bundle.code.length} bytes, ${bundle.gzipBytes} gzipped`,
    )
    return serveWorkers([{ ...worker, code: bundle.code }])
  })
  const as = (person: string | undefined, path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (person) headers.set('cf-access-authenticated-user-email', person)
    return fetch(served().origin + path, { ...init, headers })
  }

  it('keeps a diary per signed-in person on D1', async () => {
    const added = await as('alice@example.org', '/movies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(aMovie({ title: 'Heat' })),
    })
    expect(added.status).toBe(201)
    const movie = (await added.json()) as Movie
    expect(await (await as('alice@example.org', '/movies')).json()).toEqual([movie])
    expect(await (await as('bob@example.org', '/movies')).json()).toEqual([])
    expect((await as('bob@example.org', `/movies/${movie.id}`)).status).toBe(404)
    expect((await as(undefined, '/movies')).status).toBe(401)
  })

  it('serves the diary page', async () => {
    const page = await as('alice@example.org', '/', { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain('<meta name="movie-log-api" content="/movies"')
  })
})
