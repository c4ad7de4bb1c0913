/**
 * The diary page's files, found once per process: the built page beside the bundle
 * (`dist/page/` in the package), or where MOVIE_LOG_PAGE_DIR says; run from source (a checkout,
 * `npm start`, the tests), built from `src/page/` in memory, so a fresh clone needs no build
 * step and never sees a stale one. The unbuilt template is never served.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { type DiaryPage, servable as servableWith } from './assets'
import { COMPRESSED, encode } from './compress'

export { ASSET_TYPES, type DiaryPage, type Encoded, type PageAsset } from './assets'
export { encode } from './compress'

// In the package, the page is built beside the bundle (dist/page/). From source this file is
// src/page/server/files.ts, and the sources to build are in src/page/browser/.
const BUILT = fileURLToPath(new URL('./page/', import.meta.url))
const SOURCES = fileURLToPath(new URL('../browser/', import.meta.url))

let loading: Promise<DiaryPage | undefined> | undefined

/** The page for this process, found (or built) on the first call; undefined when there is none. */
export function diaryPage(env: NodeJS.ProcessEnv = process.env): Promise<DiaryPage | undefined> {
  loading ??= findPage(env)
  return loading
}

async function findPage(env: NodeJS.ProcessEnv): Promise<DiaryPage | undefined> {
  const dir = [env.MOVIE_LOG_PAGE_DIR, BUILT].find((d) => d && existsSync(join(d, 'index.html')))
  if (dir) return readBuiltPage(dir)
  if (existsSync(join(SOURCES, 'main.ts'))) return buildFromSources()
  return undefined
}

/** Reads a built page from `dir` (`index.html`, `assets/`); refuses the unbuilt template. */
export function readBuiltPage(dir: string): DiaryPage {
  const html = readFileSync(join(dir, 'index.html'), 'utf8')
  if (html.includes('{{')) {
    throw new Error(`${join(dir, 'index.html')} is the page's template, not a built page`)
  }
  const folder = join(dir, 'assets')
  const names = new Set(existsSync(folder) ? readdirSync(folder) : [])
  const read = (name: string) => readFileSync(join(folder, name))
  const files = new Map(
    [...names].filter((name) => !COMPRESSED.test(name)).map((n) => [n, read(n)]),
  )
  // The build writes each asset compressed beside it (`buildPage`): brotli at quality 11 took
  // 50 ms of every start. A page built otherwise is compressed here, once.
  return servableWith(html, files, (bytes, name) =>
    name && names.has(`${name}.br`) && names.has(`${name}.gz`)
      ? { plain: Buffer.from(bytes), br: read(`${name}.br`), gzip: read(`${name}.gz`) }
      : encode(bytes),
  )
}

async function buildFromSources(): Promise<DiaryPage> {
  // Imported by URL, so that the package's bundle neither contains the build nor needs esbuild
  // (a development dependency): a checkout has both, the package has dist/page/ instead.
  const build = new URL('./build.ts', import.meta.url).href
  const { bundlePage } = (await import(build)) as typeof import('./build')
  const { html, assets } = await bundlePage()
  return servable(html, assets)
}

function servable(html: string, files: Map<string, Uint8Array>): DiaryPage {
  return servableWith(html, files, encode)
}
