import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const UNDER_CI = process.env.CI === 'true'

export default defineConfig({
  resolve: {
    // Tests and examples import the package by its public names, served from source.
    alias: [
      { find: /^movie-log\/web$/, replacement: here('./adapters/web.ts') },
      { find: /^movie-log\/h3$/, replacement: here('./adapters/h3.ts') },
      { find: /^movie-log\/node$/, replacement: here('./adapters/node.ts') },
      { find: /^movie-log\/client$/, replacement: here('./src/client/index.ts') },
      { find: /^movie-log\/page$/, replacement: here('./src/page/server/handler.ts') },
      // The stores' subpaths, which store URLs load on first use too.
      {
        find: /^movie-log\/(memory|sqlite|postgres|redis|d1)$/,
        replacement: here('./src/drivers/$1/index.ts'),
      },
      { find: /^movie-log$/, replacement: here('./src/index.ts') },
      // MOVIE_LOG_KEYV=6: movie-log's own keyv (and the tests') is keyv 6, as npm installs it
      // on Node 22 and later where no adapter asks for keyv 5.
      ...(process.env.MOVIE_LOG_KEYV === '6' ? [{ find: /^keyv$/, replacement: 'keyv6' }] : []),
    ],
  },
  test: {
    // The package is built once (dist/, the page in dist/page/, the tarball under CI): process
    // tests start `node dist/cli.js`, and servers in a test's own process serve the built page.
    globalSetup: ['test/_global-setup.ts'],
    env: { MOVIE_LOG_PAGE_DIR: here('./dist/page') },
    // Hang guards, not assertions: no test is bound by the machine's speed.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for what is sure to come (a page update, a server back up): its 1 s
    // default would fail a slow machine, not a broken behaviour.
    expect: { poll: { timeout: 20_000 } },
    // Locally, one test file more than the cores: a file spends much of its time waiting for
    // the servers and commands it starts, and the extra one fills those waits. On two cores
    // the unit run took 59-61 s with two at once, 56-57 s with three, 57 s with four (an earlier
    // tree: 66, 69 and 86 s). Under CI, with its clusters, browsers and soaks, two files at once
    // even on two cores (vitest's default is one fewer than the cores). Worker threads, not
    // processes: a test file starts sooner and shares the loaded modules' memory (no test
    // changes the working folder or reads this process's memory).
    maxWorkers: UNDER_CI ? Math.max(2, availableParallelism() - 1) : availableParallelism() + 1,
    pool: 'threads',
    projects: [
      // What every `npm test` runs: needs nothing but Node (services when their URLs are set).
      // Its files share a worker's loaded modules (isolate: false): importing the modules again
      // for every file cost a third of the run. Tests restore what they stub, and keep their
      // state in what they open.
      { extends: true, test: { name: 'unit', include: ['test/*.test.ts'], isolate: false } },
      // A real Chromium, wherever one is installed (skipped without it; CI installs it).
      { extends: true, test: { name: 'browser', include: ['test/browser/*.test.ts'] } },
      // The long runs, the registry and the other Node lines: CI's (CI=true npx vitest run
      // test/ci/<file> runs one here).
      { extends: true, test: { name: 'ci', include: UNDER_CI ? ['test/ci/*.test.ts'] : [] } },
    ],
  },
})
