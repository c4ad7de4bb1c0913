/**
 * Cloudflare Workers in tests: a Worker bundled as wrangler bundles it, and run by Miniflare
 * (workerd) on a port of this machine, with local D1 databases where asked.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { Miniflare, type MiniflareOptions } from 'miniflare'
import type { RuntimeServer } from './_runtimes'
import { WRANGLER_BUNDLE } from './_wrangler'

/** A bundled Worker: its code, the files that went into it, and its gzipped size. */
export interface WorkerBundle {
  code: string
  inputs: string[]
  gzipBytes: number
}

/**
 * Bundles `entry` as `wrangler deploy` does (`WRANGLER_BUNDLE`). `nodePaths`: folders to resolve
 * packages from besides the entry's own node_modules (the repository's, for a package unpacked
 * elsewhere).
 */
export async function bundleWorker(entry: string, nodePaths: string[] = []): Promise<WorkerBundle> {
  const result = await build({
    ...WRANGLER_BUNDLE,
    entryPoints: [entry],
    nodePaths,
    outfile: 'worker.js',
    metafile: true,
  })
  const code = result.outputFiles?.[0]?.text ?? ''
  const inputs = Object.keys(result.metafile?.inputs ?? {})
  return { code, inputs, gzipBytes: gzipSync(code).byteLength }
}

/** A Worker for Miniflare: its name, bundled code, and its bindings. */
export interface WorkerSpec {
  name: string
  code: string
  /** D1 databases bound by these names (local, in memory). */
  d1?: string[]
  /** Other Workers of the same Miniflare bound as services: binding name -> Worker name. */
  services?: Record<string, string>
  /** As wrangler.toml says them; the newest workerd knows and nodejs_compat by default. */
  compatibilityDate?: string
  compatibilityFlags?: string[]
}

/** What a wrangler.toml says of a Worker that Miniflare needs: the keys movie-log's example uses. */
export function readWranglerToml(toml: string): Omit<WorkerSpec, 'code'> & { main: string } {
  const string = (key: string) => new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, 'm').exec(toml)?.[1]
  const list = (key: string) =>
    [
      ...(new RegExp(`^${key}\\s*=\\s*\\[([^\\]]*)\\]`, 'm').exec(toml)?.[1] ?? '').matchAll(
        /"([^"]*)"/g,
      ),
    ].map((match) => match[1] as string)
  const d1 = [...toml.matchAll(/^\[\[d1_databases\]\][^[]*?^binding\s*=\s*"([^"]+)"/gms)].map(
    (match) => match[1] as string,
  )
  return {
    name: string('name') ?? 'worker',
    main: string('main') ?? 'worker.ts',
    compatibilityDate: string('compatibility_date'),
    compatibilityFlags: list('compatibility_flags'),
    d1,
  }
}

/** Runs `workers` in one workerd on a free loopback port; the first answers the port. */
export async function serveWorkers(
  workers: WorkerSpec[],
): Promise<RuntimeServer & { mf: Miniflare }> {
  const mf = ownMiniflare(miniflareOptions(workers))
  const url = await mf.ready
  return { mf, origin: url.origin, close: () => mf.dispose() }
}

/**
 * A Miniflare whose temp folder is removed by its `dispose()`. Miniflare makes its folder in the
 * system temp folder and removes it after dispose() without waiting; made inside one of ours (it
 * reads TMPDIR when constructed), it goes with ours.
 */
export function ownMiniflare(options: MiniflareOptions): Miniflare {
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-workerd-'))
  const systemTemp = process.env.TMPDIR
  process.env.TMPDIR = folder
  let mf: Miniflare
  try {
    mf = new Miniflare(options)
  } finally {
    if (systemTemp === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = systemTemp
  }
  const dispose = mf.dispose.bind(mf)
  mf.dispose = async () => {
    try {
      await dispose()
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }
  return mf
}

/** A Miniflare holding one D1 database, `DB`, in memory, beside a Worker that does nothing. */
export function d1Miniflare(): Miniflare {
  return ownMiniflare({
    modules: true,
    script: 'export default { fetch() { return new Response("") } }',
    d1Databases: ['DB'],
    cf: false,
    compatibilityDate: '2026-04-26',
  })
}

function miniflareOptions(workers: WorkerSpec[]): MiniflareOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    // Miniflare otherwise fetches request.cf from the internet.
    cf: false,
    workers: workers.map(({ name, code, d1, services, compatibilityDate, compatibilityFlags }) => ({
      name,
      // One explicit module: Miniflare's own import scan fails on an optional import().
      modules: [{ type: 'ESModule' as const, path: `${name}.js`, contents: code }],
      compatibilityDate: compatibilityDate ?? '2026-04-26',
      compatibilityFlags: compatibilityFlags ?? ['nodejs_compat'],
      d1Databases: d1 ?? [],
      serviceBindings: services ?? {},
    })),
  }
}
