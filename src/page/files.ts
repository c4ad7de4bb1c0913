/**
 * The diary page's files, found once per process: the built page beside the bundle
 * (`dist/page/` in the package), or where MOVIE_LOG_PAGE_DIR says; run from source (a checkout,
 * `npm start`, the tests), built from `src/page/` in memory, so a fresh clone needs no build
 * step and never sees a stale one. The unbuilt template is never served.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/** Bytes as served: plain, gzipped and brotli-compressed. */
export interface Encoded {
  plain: Uint8Array
  gzip: Uint8Array
  br: Uint8Array
}

/** One asset as served: its content type and its bytes. */
export interface PageAsset extends Encoded {
  type: string
}

/** The page ready to serve: `index.html` (a template for `toPageHandler`) and its assets. */
export interface DiaryPage {
  html: string
  /** By hashed name: the script, the style, and the service worker (`sw-<hash>.js`). */
  assets: Map<string, PageAsset>
}

/** The content types of what the page is made of. */
export const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

// In the package, the page is built beside the bundle (dist/page/). From source this file is
// src/page/files.ts, beside the sources to build. A bundle without a file URL of its own (a
// Cloudflare Worker's) has no files beside it: no page, and no failure at import.
const BUILT = besideThisFile('./page/')
const SOURCES = besideThisFile('./')

function besideThisFile(path: string): string | undefined {
  const here = import.meta.url
  return here?.startsWith('file:') ? fileURLToPath(new URL(path, here)) : undefined
}

let loading: Promise<DiaryPage | undefined> | undefined

/** The page for this process, found (or built) on the first call; undefined when there is none. */
export function diaryPage(env: NodeJS.ProcessEnv = process.env): Promise<DiaryPage | undefined> {
  loading ??= findPage(env)
  return loading
}

async function findPage(env: NodeJS.ProcessEnv): Promise<DiaryPage | undefined> {
  const dir = [env.MOVIE_LOG_PAGE_DIR, BUILT].find((d) => d && existsSync(join(d, 'index.html')))
  if (dir) return readBuiltPage(dir)
  if (SOURCES && existsSync(join(SOURCES, 'main.ts'))) return buildFromSources()
  return undefined
}

/** Reads a built page from `dir` (`index.html`, `assets/`); refuses the unbuilt template. */
export function readBuiltPage(dir: string): DiaryPage {
  const html = readFileSync(join(dir, 'index.html'), 'utf8')
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
  const build = new URL('./build.ts', import.meta.url).href
  const { bundlePage } = (await import(build)) as typeof import('./build')
  const { html, assets } = await bundlePage()
  return servable(html, assets)
}

/** `bytes` compressed both ways, once: a handful of small files, never per request. */
export function encode(bytes: Uint8Array): Encoded {
  const plain = Buffer.from(bytes)
  return {
    plain,
    gzip: gzipSync(plain, { level: 9 }),
    br: brotliCompressSync(plain, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
      },
    }),
  }
}

function servable(html: string, files: Map<string, Uint8Array>): DiaryPage {
  const assets = new Map<string, PageAsset>()
  for (const [name, bytes] of files) {
    const type = ASSET_TYPES[name.slice(name.lastIndexOf('.'))]
    if (type) assets.set(name, { type, ...encode(bytes) })
  }
  return { html, assets }
}
