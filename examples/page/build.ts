/**
 * Builds the diary page into `outDir`: its script and style under content-hashed names (served
 * with long-lived caching), and `index.html` naming them. `npm run build` writes `dist/page/`.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const CLIENT = fileURLToPath(new URL('../../src/client/index.ts', import.meta.url))

/** The built files: `index.html`, and the hashed asset names it refers to. */
export interface BuiltPage {
  dir: string
  assets: string[]
}

/** Bundles, minifies and hashes the page into `outDir` (emptied first). */
export async function buildPage(outDir: string): Promise<BuiltPage> {
  await rm(outDir, { recursive: true, force: true })
  await mkdir(outDir, { recursive: true })
  const result = await build({
    entryPoints: { diary: join(HERE, 'main.ts'), style: join(HERE, 'style.css') },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome111', 'firefox111', 'safari16.4'],
    entryNames: '[name]-[hash]',
    outdir: join(outDir, 'assets'),
    // The page is built from the client's source, as the package ships it.
    alias: { 'movie-log/client': CLIENT },
    metafile: true,
    logLevel: 'silent',
  })
  const assets = Object.keys(result.metafile.outputs).map((file) => basename(file))
  const named = (extension: string) => assets.find((file) => file.endsWith(extension)) ?? ''
  const html = (await readFile(join(HERE, 'index.html'), 'utf8'))
    .replace('{{script}}', `/assets/${named('.js')}`)
    .replace('{{style}}', `/assets/${named('.css')}`)
  await writeFile(join(outDir, 'index.html'), html)
  return { dir: outDir, assets }
}
