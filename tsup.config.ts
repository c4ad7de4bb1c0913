import { writeFile } from 'node:fs/promises'
import { defineConfig } from 'tsup'
import { createOpenApiDocument } from './src/openapi/document'

export default defineConfig({
  // Keys are the dist file names: movie-log -> index, movie-log/web -> web, movie-log/h3 -> h3, movie-log/client -> client.
  entry: {
    index: 'src/index.ts',
    web: 'adapters/web.ts',
    h3: 'adapters/h3.ts',
    client: 'src/client/index.ts',
  },
  format: ['esm'],
  target: 'node20',
  dts: true,
  // One shared chunk: the error classes are one class whichever entry a user imports.
  splitting: true,
  sourcemap: true,
  clean: true,
  removeNodeProtocol: false,
  // Peer dependencies stay imports, resolved from the user's app.
  external: ['h3', /^@keyv\//],
  // movie-log/openapi.json: the document of a handler at the default base path, /movies.
  onSuccess: () =>
    writeFile(
      'dist/openapi.json',
      `${JSON.stringify(createOpenApiDocument('/movies'), null, 2)}\n`,
    ),
})
