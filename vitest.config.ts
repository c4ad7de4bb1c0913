import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  resolve: {
    // Tests and examples import the package by its public names, served from source.
    alias: [
      { find: /^movie-log\/web$/, replacement: here('./adapters/web.ts') },
      { find: /^movie-log\/h3$/, replacement: here('./adapters/h3.ts') },
      { find: /^movie-log\/node$/, replacement: here('./adapters/node.ts') },
      { find: /^movie-log\/client$/, replacement: here('./src/client/index.ts') },
      { find: /^movie-log\/page$/, replacement: here('./src/page/handler.ts') },
      { find: /^movie-log$/, replacement: here('./src/index.ts') },
      // MOVIE_LOG_KEYV=6: movie-log's own keyv (and the tests') is keyv 6, as npm installs it
      // on Node 22 and later where no adapter asks for keyv 5.
      ...(process.env.MOVIE_LOG_KEYV === '6' ? [{ find: /^keyv$/, replacement: 'keyv6' }] : []),
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Hang guards, not assertions: no test is bound by the machine's speed.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for what is sure to come (a page update, a server back up): its 1 s
    // default would fail a slow machine, not a broken behaviour.
    expect: { poll: { timeout: 20_000 } },
    // Most local suites wait on child processes and sockets: two files at once even on two
    // cores (vitest's default is one fewer than the cores). Under CI, where the soak, chaos and
    // 100k-movie runs measure what they do, the default.
    maxWorkers: process.env.CI === 'true' ? undefined : Math.max(2, availableParallelism() - 1),
  },
})
