/**
 * The diary page the server serves, found once per process: the built page beside the bundled
 * server (`dist/page/` in the package), or where MOVIE_LOG_PAGE_DIR says; run from source (a
 * checkout, `npm start`), built from `src/page/` in memory at start, so a fresh clone needs no
 * build step and never sees a stale one. The unbuilt template is never served.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

/** One asset as served: its content type, and its bytes plain and gzipped. */
export interface PageAsset {
  type: string
  plain: Buffer
  gzipped: Buffer
}

/** The page ready to serve: `index.html` and its hashed assets by name. */
export interface DiaryPage {
  html: Buffer
  assets: Map<string, PageAsset>
}

/** The content types of what the page is made of. */
export const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

// In the package, the page is built beside the bundled server (dist/page/). From source this
// file is src/server/diary-page.ts: its page is ../page/, sources to build.
const BUILT = fileURLToPath(new URL('./page/', import.meta.url))
const SOURCES = fileURLToPath(new URL('../page/', import.meta.url))

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
  const html = readFileSync(join(dir, 'index.html'))
  if (html.includes('{{')) {
    throw new Error(`${join(dir, 'index.html')} is the page's template, not a built page`)
  }
  const folder = join(dir, 'assets')
  const names = existsSync(folder) ? readdirSync(folder) : []
  return servable(html, new Map(names.map((name) => [name, readFileSync(join(folder, name))])))
}

async function buildFromSources(): Promise<DiaryPage> {
  // Imported by URL, so that the package's bundle neither contains the build nor needs esbuild
  // (a development dependency): a checkout has both, the package has dist/page/ instead.
  const build = new URL('../page/build.ts', import.meta.url).href
  const { bundlePage } = (await import(build)) as typeof import('../page/build')
  const { html, assets } = await bundlePage()
  return servable(Buffer.from(html), assets)
}

// Compressed once here rather than per request: a handful of small files.
function servable(html: Buffer, files: Map<string, Uint8Array>): DiaryPage {
  const assets = new Map<string, PageAsset>()
  for (const [name, bytes] of files) {
    const type = ASSET_TYPES[name.slice(name.lastIndexOf('.'))]
    if (!type) continue
    const plain = Buffer.from(bytes)
    assets.set(name, { type, plain, gzipped: gzipSync(plain, { level: 9 }) })
  }
  return { html, assets }
}
