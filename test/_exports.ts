import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The public entries: package subpath -> source file. */
export const ENTRIES = {
  'movie-log': 'src/index.ts',
  'movie-log/web': 'adapters/web.ts',
  'movie-log/h3': 'adapters/h3.ts',
  'movie-log/node': 'adapters/node.ts',
  'movie-log/client': 'src/client/index.ts',
  'movie-log/page': 'src/page/server/handler.ts',
  'movie-log/memory': 'src/drivers/memory/index.ts',
  'movie-log/sqlite': 'src/drivers/sqlite/index.ts',
  'movie-log/postgres': 'src/drivers/postgres/index.ts',
  'movie-log/redis': 'src/drivers/redis/index.ts',
  'movie-log/d1': 'src/drivers/d1/index.ts',
} as const

/** Every name an entry exports, values and types alike, sorted. */
export function exportedNames(): Record<keyof typeof ENTRIES, string[]> {
  const files = Object.values(ENTRIES).map((file) => ROOT + file)
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    experimentalDecorators: true,
    noEmit: true,
    noLib: true,
    types: [],
  }
  // The entries' own names are all that is read: the dependencies' declarations, the larger
  // part of the parse, are read as empty files.
  const host = ts.createCompilerHost(options)
  const readSource = host.getSourceFile.bind(host)
  host.getSourceFile = (name, language, ...rest) =>
    name.includes('/node_modules/')
      ? ts.createSourceFile(name, '', language)
      : readSource(name, language, ...rest)
  const program = ts.createProgram(files, options, host)
  const checker = program.getTypeChecker()
  const names = {} as Record<keyof typeof ENTRIES, string[]>
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(ROOT + file)
    const symbol = source && checker.getSymbolAtLocation(source)
    if (!symbol) throw new Error(`cannot read the exports of ${file}`)
    names[entry as keyof typeof ENTRIES] = checker
      .getExportsOfModule(symbol)
      .map((exported) => exported.name)
      .sort()
  }
  return names
}
