import { runtimeBinary } from '../../.ci/runtimes'
import { describeScriptRuntime } from '../_runtimes'
import { tempFolders } from '../_temp'

// The HTTP suite against runtime-tests/bun.ts on Bun.serve, on memory and on SQLite (the
// runtime's natural store), and the client run on Bun against it.
describeScriptRuntime(
  {
    name: 'Bun',
    binary: runtimeBinary('bun'),
    // --no-install: resolve from the app's node_modules only, never fetch.
    run: (script) => ['--no-install', script],
    env: {},
    server: 'bun.ts',
    client: 'client-main.ts',
    example: 'examples/bun.ts',
    stores: [
      ['memory', 'memory://'],
      ['sqlite', 'sqlite://./movies.sqlite'],
    ],
  },
  tempFolders(),
)
