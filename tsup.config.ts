import { writeFile } from 'node:fs/promises'
import { defineConfig } from 'tsup'
import { createOpenApiDocument } from './src/openapi/document'
import { buildPage } from './src/page/build'

const LIBRARY = {
  index: 'src/index.ts',
  web: 'adapters/web.ts',
  h3: 'adapters/h3.ts',
  node: 'adapters/node.ts',
  client: 'src/client/index.ts',
  page: 'src/page/handler.ts',
  // The stores, one subpath each (movie-log/sqlite): an app's bundle holds the ones it imports.
  memory: 'src/drivers/entries/memory.ts',
  sqlite: 'src/drivers/entries/sqlite.ts',
  postgres: 'src/drivers/entries/postgres.ts',
  redis: 'src/drivers/entries/redis.ts',
}

export default defineConfig({
  // Keys are the dist file names: movie-log -> index, movie-log/web -> web, and so on; cli is
  // the movie-log command (package.json bin).
  entry: { ...LIBRARY, cli: 'src/cli/index.ts' },
  format: ['esm'],
  target: 'node20',
  // Declarations for what is imported; the command is only run.
  dts: { entry: LIBRARY },
  // One shared chunk: the error classes are one class whichever entry a user imports.
  splitting: true,
  sourcemap: true,
  clean: true,
  removeNodeProtocol: false,
  // Peer dependencies stay imports, resolved from the user's app: pg too (the command's
  // PostgreSQL pool), which bundled would call require() from ESM and fail.
  external: ['h3', 'listhen', 'pg', 'sqlite3', /^@keyv\//],
  // movie-log/openapi.json: the document of a handler at the default base path, /movies; and
  // the diary page `movie-log serve` serves, in dist/page/ (run from source, it builds its own).
  onSuccess: async () => {
    await writeFile(
      'dist/openapi.json',
      `${JSON.stringify(createOpenApiDocument('/movies'), null, 2)}\n`,
    )
    await buildPage('dist/page')
  },
})
