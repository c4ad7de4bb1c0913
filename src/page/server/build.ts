/**
 * Builds the diary page: its script, style and service worker under content-hashed names (served with
 * long-lived caching), and `index.html` naming them. `npm run build` writes `dist/page/`; the
 * server run from source (`npm start` in a checkout) builds it in memory at start.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { ADD_LABEL, formMarkup } from '../browser/movie-form'
import { compressedCopies } from './compress'

// The page's sources: what runs in the browser, beside this folder.
const BROWSER = fileURLToPath(new URL('../browser/', import.meta.url))

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

const TARGET = ['chrome111', 'firefox111', 'safari16.4']

/** Bundles, minifies and hashes the page from its sources, in memory. */
export async function bundlePage(): Promise<PageFiles> {
  const common = {
    bundle: true,
    minify: true,
    platform: 'browser',
    target: TARGET,
    entryNames: '[name]-[hash]',
    outdir: join(BROWSER, 'assets'),
    write: false,
    logLevel: 'silent',
  } as const
  // The service worker is a classic script (module workers are not everywhere yet). What the
  // page loads only when asked (the import panel, the share control) and a share link's
  // read-only page (`shared-<hash>.js`) are scripts of their own, so no page loads another's
  // code, nor a chunk they would share; the page's script is told their hashed names.
  const module = (name: string, file: string) =>
    build({ ...common, entryPoints: { [name]: join(BROWSER, file) }, format: 'esm' })
  const parts = await Promise.all([
    module('import-panel', 'import-panel.ts'),
    module('share', 'share.ts'),
    module('shared', 'shared.ts'),
    build({ ...common, entryPoints: { sw: join(BROWSER, 'sw.ts') }, format: 'iife' }),
  ])
  const [panel, share] = parts.map((part) =>
    basename((part.outputFiles[0] as { path: string }).path),
  )
  const page = await build({
    ...common,
    entryPoints: { diary: join(BROWSER, 'main.ts'), style: join(BROWSER, 'style.css') },
    format: 'esm',
    define: { IMPORT_PANEL: JSON.stringify(panel), SHARE_CONTROL: JSON.stringify(share) },
  })
  const outputs = [page, ...parts].flatMap((each) => each.outputFiles)
  const assets = new Map(outputs.map((file) => [basename(file.path), file.contents]))
  const named = (start: string) => [...assets.keys()].find((name) => name.startsWith(start))
  const html = (await readFile(join(BROWSER, 'index.html'), 'utf8'))
    .replace('{{script}}', `/assets/${named('diary-')}`)
    .replace('{{style}}', `/assets/${named('style-')}`)
    .replace('{{add-form}}', formMarkup('add', ADD_LABEL))
  return { html, assets }
}

/** Bundles the page into `outDir` (emptied first). */
export async function buildPage(outDir: string): Promise<BuiltPage> {
  const { html, assets } = await bundlePage()
  await rm(outDir, { recursive: true, force: true })
  await mkdir(join(outDir, 'assets'), { recursive: true })
  for (const [name, contents] of assets) {
    await writeFile(join(outDir, 'assets', name), contents)
    // Compressed once here, not at every start of the server that serves them. Not the
    // service worker's: it is served as `/sw.js`, made for each mount (serve.ts).
    const copies = name.startsWith('sw-') ? [] : compressedCopies(name, contents)
    for (const [copy, bytes] of copies) {
      await writeFile(join(outDir, 'assets', copy), bytes)
    }
  }
  await writeFile(join(outDir, 'index.html'), html)
  return { dir: outDir, assets: [...assets.keys()].sort() }
}
