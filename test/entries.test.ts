import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

// What importing each library entry loads, as a bundler sees it (dynamic imports followed too):
// the core and the adapters load no server, command or page code, and the core and the web
// handler no h3 (issue 26: cold start, "importing the core loads no server, CLI or page code").
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const ENTRIES = {
  index: 'src/index.ts',
  web: 'adapters/web.ts',
  h3: 'adapters/h3.ts',
  node: 'adapters/node.ts',
  client: 'src/client/index.ts',
}
const SERVER_SIDE = /^(src\/(server|cli|page)\/|examples\/)/
const SERVER_PACKAGES = ['listhen', 'citty', 'esbuild']
// The package's code bundled as a bundler sees it, its dependencies left as imports.
const BUILD = {
  absWorkingDir: ROOT,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  write: false,
  metafile: true,
  logLevel: 'silent',
} as const

/** The source files an entry reaches, and the packages it imports statically (on import). */
async function loads(entry: string): Promise<{ files: string[]; packages: string[] }> {
  const { metafile } = await build({ ...BUILD, entryPoints: [entry] })
  const packages = Object.values(metafile.outputs).flatMap((output) =>
    output.imports
      .filter((imported) => imported.external && imported.kind === 'import-statement')
      .map((imported) => imported.path),
  )
  return { files: Object.keys(metafile.inputs), packages: [...new Set(packages)] }
}

/**
 * What importing an entry evaluates before anything is called: the source files and packages
 * it reaches by static imports, a dynamic import being a chunk of its own, loaded when run.
 */
async function loadsOnImport(entry: string): Promise<{ files: string[]; packages: string[] }> {
  const { metafile } = await build({
    ...BUILD,
    entryPoints: [entry],
    splitting: true,
    outdir: 'out',
  })
  const outputs = metafile.outputs
  const start = Object.keys(outputs).find((name) => outputs[name]?.entryPoint === entry)
  const files = new Set<string>()
  const packages = new Set<string>()
  const reached = new Set<string>()
  const visit = (name: string) => {
    if (reached.has(name)) return
    reached.add(name)
    const output = outputs[name]
    for (const file of Object.keys(output?.inputs ?? {})) files.add(file)
    for (const imported of output?.imports ?? []) {
      if (imported.kind !== 'import-statement') continue
      if (imported.external) packages.add(imported.path)
      else visit(imported.path)
    }
  }
  visit(start as string)
  return { files: [...files], packages: [...packages] }
}

describe('what importing an entry loads', () => {
  it.each(Object.entries(ENTRIES))(
    'movie-log/%s: no server, command or page code',
    async (_, entry) => {
      const { files, packages } = await loads(entry)
      expect(files).toContain(entry)
      expect(files.filter((file) => SERVER_SIDE.test(file))).toEqual([])
      expect(packages.filter((name) => SERVER_PACKAGES.includes(name))).toEqual([])
    },
  )

  // Code only some requests need waits for the first of them (bench/NOTES.md: cold start).
  it.each(['index', 'web'] as const)(
    'movie-log/%s: no OpenAPI document or CSV writer until a request asks for one',
    async (name) => {
      const { files, packages } = await loadsOnImport(ENTRIES[name])
      expect(files).toContain(ENTRIES[name])
      // The plug-in points' lists (names and readers) are there; no document, no CSV writer.
      const writers = /^src\/(http\/openapi\/|formats\/(movie-csv|letterboxd)\.ts)/
      expect(files.filter((file) => writers.test(file))).toEqual([])
      expect(packages.filter((imported) => imported.startsWith('csv-'))).toEqual([])
    },
  )

  it.each(['index', 'web', 'client'] as const)('movie-log/%s: no h3', async (name) => {
    const { packages } = await loads(ENTRIES[name])
    expect(packages.filter((imported) => /^h3(\/|$)/.test(imported))).toEqual([])
  })
})
