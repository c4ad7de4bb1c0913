/**
 * Builds the diary page: its script and style under content-hashed names (served with
 * long-lived caching), and `index.html` naming them. `npm run build` writes `dist/page/`; the
 * server run from source (`npm start` in a checkout) builds it in memory at start.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const HERE = fileURLToPath(new URL('.', import.meta.url))

/** The page in memory: `index.html`, and its assets by their hashed names. */
export interface PageFiles {
  html: string
  assets: Map<string, Uint8Array>
}

/** The built files: `index.html` in `dir`, and the hashed asset names it refers to. */
export interface BuiltPage {
  dir: string
  assets: string[]
}

/** Bundles, minifies and hashes the page from its sources, in memory. */
export async function bundlePage(): Promise<PageFiles> {
  const result = await build({
    entryPoints: { diary: join(HERE, 'main.ts'), style: join(HERE, 'style.css') },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome111', 'firefox111', 'safari16.4'],
    entryNames: '[name]-[hash]',
    outdir: join(HERE, 'assets'),
    write: false,
    logLevel: 'silent',
  })
  const assets = new Map(result.outputFiles.map((file) => [basename(file.path), file.contents]))
  const named = (extension: string) => [...assets.keys()].find((name) => name.endsWith(extension))
  const html = (await readFile(join(HERE, 'index.html'), 'utf8'))
    .replace('{{script}}', `/assets/${named('.js')}`)
    .replace('{{style}}', `/assets/${named('.css')}`)
  return { html, assets }
}

/** Bundles the page into `outDir` (emptied first). */
export async function buildPage(outDir: string): Promise<BuiltPage> {
  const { html, assets } = await bundlePage()
  await rm(outDir, { recursive: true, force: true })
  await mkdir(join(outDir, 'assets'), { recursive: true })
  for (const [name, contents] of assets) await writeFile(join(outDir, 'assets', name), contents)
  await writeFile(join(outDir, 'index.html'), html)
  return { dir: outDir, assets: [...assets.keys()].sort() }
}
