import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { httpContract } from '../_http-suite'
import { expectClientChecks, makeApp, remoteTarget, servedBy } from '../_runtimes'
import { tempFolders } from '../_temp'
import { bundleWorker, serveWorkers } from '../_worker'

// The HTTP suite against runtime-tests/worker*.ts, bundled as wrangler bundles them and run by
// workerd (Miniflare) on a port, on memory and on D1 (local); and the client run in workerd
// against it, through a service binding.
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
  describe('HTTP contract', () =>
    httpContract(
      `workerd, ${storeName}`,
      remoteTarget(() => served().origin),
      'remote',
    ))

  it('runs the client in workerd against it', async () => {
    // Miniflare's Fetcher: its types are workerd's, not this process's fetch.
    const client = (await served().mf.getWorker('client')) as unknown as {
      fetch(url: string): Promise<Response>
    }
    const response = await client.fetch('http://client/')
    expectClientChecks(await response.json())
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
