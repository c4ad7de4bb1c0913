import { runtimeBinary } from '../../.ci/runtimes'
import { describeScriptRuntime } from '../_runtimes'
import { tempFolders } from '../_temp'

// The HTTP suite against runtime-tests/deno.ts on Deno.serve, on memory and on SQLite (the
// runtime's natural store), and the client run on Deno against it.
describeScriptRuntime(
  {
    name: 'Deno',
    binary: runtimeBinary('deno'),
    // The app's package.json and node_modules, as a Node app has them (no deno.json, no lock).
    run: (script) => ['run', '--no-lock', '--allow-all', script],
    // No look for a newer Deno on the internet.
    env: { DENO_NO_UPDATE_CHECK: '1' },
    server: 'deno.ts',
    client: 'deno-client.ts',
    example: 'examples/deno.ts',
    stores: [
      ['memory', 'memory://'],
      ['sqlite', 'sqlite://./movies.sqlite'],
    ],
  },
  tempFolders(),
)
