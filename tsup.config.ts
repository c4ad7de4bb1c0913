import { writeFile } from 'node:fs/promises'
import { defineConfig } from 'tsup'
import { createOpenApiDocument } from './src/http/openapi/document'
import { buildPage, bundlePage } from './src/page/server/build'

const LIBRARY = {
  index: 'src/index.ts',
  web: 'adapters/web.ts',
  h3: 'adapters/h3.ts',
  node: 'adapters/node.ts',
  client: 'src/client/index.ts',
  page: 'src/page/server/handler.ts',
  // movie-log/page under the workerd and worker conditions: the page built into the bundle.
  'page-worker': 'src/page/server/handler-worker.ts',
  // The stores, one subpath each (movie-log/sqlite): an app's bundle holds the ones it imports.
  memory: 'src/drivers/memory/index.ts',
  sqlite: 'src/drivers/sqlite/index.ts',
  postgres: 'src/drivers/postgres/index.ts',
  redis: 'src/drivers/redis/index.ts',
  d1: 'src/drivers/d1/index.ts',
}

export default defineConfig({
  // Keys are the dist file names: movie-log -> index, movie-log/web -> web, and so on; cli is
  // the movie-log command (package.json bin).
  entry: { ...LIBRARY, cli: 'src/cli/index.ts' },
  format: ['esm'],
  target: 'node20',
  // Declarations for what is imported; the command is only run.
  dts: { entry: LIBRARY },
  esbuildPlugins: [
    {
      // The built page as a module (its files as text), for the Worker's page handler.
      name: 'movie-log-page',
      setup(build) {
        build.onResolve({ filter: /^virtual:movie-log-page$/ }, (args) => ({
          path: args.path,
          namespace: 'movie-log-page',
        }))
        build.onLoad({ filter: /.*/, namespace: 'movie-log-page' }, async () => {
          const { html, assets } = await bundlePage()
          const decoder = new TextDecoder()
          const texts = Object.fromEntries(
            [...assets].map(([name, bytes]) => [name, decoder.decode(bytes)]),
          )
          return {
            contents: `export default ${JSON.stringify({ html, assets: texts })}`,
            loader: 'js',
          }
        })
      },
    },
  ],
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
