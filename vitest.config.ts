import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  resolve: {
    // Tests and examples import the package by its public names, served from source.
    alias: [
      { find: /^movie-log\/web$/, replacement: here('./adapters/web.ts') },
      { find: /^movie-log\/h3$/, replacement: here('./adapters/h3.ts') },
      { find: /^movie-log\/client$/, replacement: here('./src/client/index.ts') },
      { find: /^movie-log$/, replacement: here('./src/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
