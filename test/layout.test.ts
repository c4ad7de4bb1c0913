import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The layout STYLE.md "The house" describes, checked on the source itself.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
// Aim for under 200 (h3: "short files"); one concern in one file beats a split by a line cap.
const MAX_LINES = 400

const filesIn = (folder: string) =>
  existsSync(join(ROOT, folder))
    ? readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => join(folder, file))
    : []
const sources = ['src', 'adapters'].flatMap(filesIn)
const known = new Set([...sources, ...filesIn('examples')])

/**
 * Every module a file names, read from its syntax tree (so a JSDoc example is not an import):
 * `import … from`, `export … from`, `import('…')`, a type's `import('…')`, and a module loaded
 * by its URL, `new URL('./x.ts', import.meta.url)`.
 */
function specifiersOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const found: string[] = []
  const literal = (node: ts.Node | undefined) =>
    node && ts.isStringLiteralLike(node) ? node.text : undefined
  const visit = (node: ts.Node) => {
    let named: string | undefined
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      named = literal(node.moduleSpecifier)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      named = literal(node.argument.literal)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      named = literal(node.arguments[0])
    } else if (
      ts.isNewExpression(node) &&
      node.expression.getText() === 'URL' &&
      node.arguments?.[1]?.getText() === 'import.meta.url'
    ) {
      named = literal(node.arguments[0])?.match(/^\..*\.ts$/)?.[0]
    }
    if (named) found.push(named)
    ts.forEachChild(node, visit)
  }
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true))
  return found
}

/** What a file names: the source files it imports (resolved), and the packages it imports. */
function importsOf(file: string): { files: string[]; packages: string[] } {
  const files: string[] = []
  const packages: string[] = []
  for (const target of specifiersOf(file)) {
    if (!target.startsWith('.')) {
      packages.push(target)
      continue
    }
    const base = relative(ROOT, resolve(ROOT, dirname(file), target))
    const match = [base, `${base}.ts`, join(base, 'index.ts')].find((name) => known.has(name))
    if (match) files.push(match)
  }
  return { files, packages }
}

const graph = new Map(sources.map((file) => [file, importsOf(file).files]))

const DRIVER_FAMILIES = ['shared', 'memory', 'scan', 'sql', 'sqlite', 'postgres', 'redis', 'd1']

// The layers, by folder. The page's halves by folder: browser/ runs in the page, server/ builds and serves it.
const LAYERS: [layer: string, test: RegExp][] = [
  ['page-node', /^src\/page\/server\//],
  ['page', /^src\/page\/browser\//],
  ['http', /^src\/http\//],
  // What drivers may see of the core: the port, the movie rules (and the words and counters
  // search and statistics index), the errors, store URLs, the one cache policy (lru).
  [
    'core-port',
    /^src\/core\/(driver|movie|fields|rating-tags|errors|store-url|store-adapter|words|tallies|lru|catalog|catalog-key|catalog-rows|catalog-match)\.ts$/,
  ],
  ['entry', /^src\/(index|create|plugins|store-urls|store-files)\.ts$/],
  // What the command may use of the server: its door.
  ['server-door', /^src\/server\/index\.ts$/],
  // A folder per store family; `src/drivers/index.ts` picks a driver for a Keyv.
  ...DRIVER_FAMILIES.map((family): [string, RegExp] => [
    `drivers/${family}`,
    new RegExp(`^src/drivers/${family}/`),
  ]),
  ['drivers', /^src\/drivers\/index\.ts$/],
  ...['core', 'formats', 'client', 'server', 'cli', 'webhooks'].map((layer): [string, RegExp] => [
    layer,
    new RegExp(`^src/${layer}/`),
  ]),
  ['adapters', /^adapters\//],
  ['examples', /^examples\//],
]
const layerOf = (file: string) => LAYERS.find(([, test]) => test.test(file))?.[0] ?? 'none'

// Whom each layer may import besides itself. `entry` is src/index.ts (the core's public surface)
// and src/create.ts (the composition root, the one place that knows the drivers).
const MAY_IMPORT: Record<string, string[]> = {
  core: [],
  'core-port': [],
  // Drivers implement the core's port; of the core they see only the port and the pure rules.
  // A family folder sees the shared pieces and itself; the SQL dialects also the SQL they share.
  'drivers/shared': ['core-port'],
  ...Object.fromEntries(
    ['memory', 'scan', 'sql', 'redis'].map((family) => [
      `drivers/${family}`,
      ['core-port', 'drivers/shared'],
    ]),
  ),
  ...Object.fromEntries(
    ['sqlite', 'postgres', 'd1'].map((family) => [
      `drivers/${family}`,
      ['core-port', 'drivers/shared', 'drivers/sql'],
    ]),
  ),
  // Picks the driver for a Keyv: memory for a Map, Redis for a KeyvRedis, else the scan.
  drivers: ['core-port', 'drivers/shared', 'drivers/memory', 'drivers/scan', 'drivers/redis'],
  // The composition root opens any driver; the plug-in registry names the formats' plug-in
  // points (src/plugins.ts).
  entry: [
    'core',
    'core-port',
    'drivers',
    'webhooks',
    'formats',
    ...DRIVER_FAMILIES.map((family) => `drivers/${family}`),
  ],
  // The HTTP contract (its OpenAPI document included) sends CSV through the formats.
  http: ['core', 'formats', 'webhooks'],
  formats: ['core'],
  // Outgoing webhooks: the endpoints in the owners' records, and their deliverer.
  webhooks: ['core'],
  client: ['core'],
  adapters: ['http', 'core'],
  // The server is an h3 app: it mounts the log with `toH3Handler`, which movie-log/h3 exports.
  server: ['http', 'core', 'entry', 'page-node', 'webhooks'],
  'server-door': ['server'],
  cli: ['server-door', 'core', 'entry', 'formats', 'http', 'webhooks'],
  page: ['client', 'core'],
  'page-node': ['page', 'client', 'core', 'http'],
}

function crossings(): string[] {
  return [...graph].flatMap(([file, imports]) => {
    const from = layerOf(file)
    const allowed = MAY_IMPORT[from]
    // The core's port is part of the core, for everyone but the drivers.
    const same = (to: string) => to === from || (from === 'core' && to === 'core-port')
    const reaches = (to: string) =>
      allowed?.includes(to) || (to === 'core-port' && allowed?.includes('core'))
    return imports
      .filter((target) => {
        const to = layerOf(target)
        return to === 'examples' || (allowed !== undefined && !same(to) && !reaches(to))
      })
      .map((target) => `${file} (${from}) -> ${target} (${layerOf(target)})`)
  })
}

function cycles(): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const walk = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return
    if (state.get(file) === 'open') {
      found.push([...path.slice(path.indexOf(file)), file])
      return
    }
    state.set(file, 'open')
    for (const next of graph.get(file) ?? []) walk(next, [...path, file])
    state.set(file, 'done')
  }
  for (const file of sources) walk(file, [])
  return found
}

describe('the source layout', () => {
  it('has no import cycle', () => {
    expect(sources.length).toBeGreaterThan(20)
    expect(cycles()).toEqual([])
  })

  it('has no file over 400 lines', () => {
    const long = sources.filter(
      (file) => readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n').length > MAX_LINES,
    )
    expect(long).toEqual([])
  })

  it('keeps HTTP out of the core and the drivers, and drivers out of HTTP', () => {
    const crossings = [...graph].flatMap(([file, imports]) =>
      imports
        .filter(
          (target) =>
            ((file.startsWith('src/core/') || file.startsWith('src/drivers/')) &&
              target.startsWith('src/http/')) ||
            (file.startsWith('src/http/') && target.startsWith('src/drivers/')),
        )
        .map((target) => `${file} -> ${target}`),
    )
    expect(crossings).toEqual([])
  })

  it('keeps every driver file in the folder of its family', () => {
    const flat = sources.filter((file) => /^src\/drivers\/[^/]+$/.test(file))
    expect(flat).toEqual(['src/drivers/index.ts'])
  })

  it('puts every source file in a layer', () => {
    expect(sources.filter((file) => layerOf(file) === 'none')).toEqual([])
  })

  it('has each layer import only the layers below it, and nothing import examples/', () => {
    expect(crossings()).toEqual([])
  })

  it('imports the package by relative paths inside src/ and adapters/, never by its name', () => {
    const named = sources.filter((file) =>
      importsOf(file).packages.some((name) => /^movie-log(\/|$)/.test(name)),
    )
    expect(named).toEqual([])
  })
})

describe('the layout check itself', () => {
  it('sees dynamic imports, re-exports, type imports and imports by URL', () => {
    const server = importsOf('src/cli/serve.ts').files
    expect(server).toContain('src/server/index.ts')
    expect(importsOf('src/client/index.ts').files).toContain('src/core/movie.ts')
    expect(importsOf('src/page/server/files.ts').files).toContain('src/page/server/build.ts')
  })
})
