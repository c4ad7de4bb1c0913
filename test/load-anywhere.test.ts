// Issue 35: `movie-log` and `movie-log/web` load on every runtime (Cloudflare Workers among
// them): bundled as wrangler bundles a Worker, the core and the web handler name no Node
// built-in, and hold no store client.
import { readFileSync } from 'node:fs'
import { build, type Metafile } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { WRANGLER_BUNDLE } from './_wrangler'

const source = (path: string) => new URL(`../${path}`, import.meta.url).pathname

/** A Worker of the log in memory and its web handler, bundled the way wrangler does. */
async function workerBundle(): Promise<{ metafile: Metafile }> {
  const result = await build({
    stdin: {
      contents: `import { createMovieLog } from ${JSON.stringify(source('src/index.ts'))}
import { toWebHandler } from ${JSON.stringify(source('adapters/web.ts'))}
const handler = toWebHandler(createMovieLog())
export default { fetch: (request) => handler(request) }`,
      resolveDir: source('.'),
    },
    ...WRANGLER_BUNDLE,
    metafile: true,
  })
  return { metafile: result.metafile }
}

describe('the core on any runtime', () => {
  it('imports no Node built-in, by node: or bare name, and no createRequire', async () => {
    const { metafile } = await workerBundle()
    const imports = Object.values(metafile.outputs).flatMap((output) =>
      output.imports.filter((each) => each.external).map((each) => each.path),
    )
    // keyv's serializer (@keyv/serialize) imports buffer, which nodejs_compat gives a Worker.
    expect(imports.filter((name) => name !== 'buffer')).toEqual([])
    // movie-log's own modules in it (csv-stringify, loaded by a CSV export only, uses Buffer,
    // which nodejs_compat gives): none uses Node's Buffer or createRequire.
    const own = Object.keys(metafile.inputs).filter((path) => /^(src|adapters)\//.test(path))
    expect(own.length).toBeGreaterThan(20)
    const nodeOnly = own.filter((path) =>
      /\bcreateRequire\b|\bBuffer\./.test(readFileSync(source(path), 'utf8')),
    )
    expect(nodeOnly).toEqual([])
  })

  it('holds no store client: no database package, no driver of a store it was not given', async () => {
    const { metafile } = await workerBundle()
    const inputs = Object.keys(metafile.inputs)
    const packages = new Set(
      inputs.flatMap((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? []),
    )
    for (const client of [
      'pg',
      'redis',
      '@redis/client',
      '@keyv/redis',
      'sqlite3',
      'cluster-key-slot',
    ]) {
      expect(packages.has(client), client).toBe(false)
    }
    const drivers = inputs.filter((path) =>
      /src\/drivers\/(sqlite|postgres|redis|d1)[^/]*\.ts$/.test(path),
    )
    // The Redis failure classifier is the keyv scan's too; no Redis driver code.
    expect(
      drivers.filter(
        (path) => !path.endsWith('shared/redis-failures.ts') && !path.endsWith('redis/client.ts'),
      ),
    ).toEqual([])
  })
})
