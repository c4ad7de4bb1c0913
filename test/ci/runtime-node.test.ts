import { NODE_LINES, nodeBinary } from '../../.ci/node-lines'
import { describeScriptRuntime } from '../_runtimes'
import { tempFolders } from '../_temp'

// The HTTP suite against runtime-tests/node.ts (node:http and movie-log/node) on each Node line,
// on memory and on SQLite, and the client run on that Node against it, as for Bun and Deno.
// Node's examples run in test/examples.test.ts.
const tempFolder = tempFolders()
for (const line of NODE_LINES) {
  describeScriptRuntime(
    {
      name: `Node ${line}`,
      binary: nodeBinary(line),
      // Node 22 strips the scripts' types behind a flag; 24 and 26 by default.
      run: (script) => [
        '--experimental-strip-types',
        '--disable-warning=ExperimentalWarning',
        script,
      ],
      env: {},
      server: 'node.ts',
      client: 'client-main.ts',
      stores: [
        ['memory', 'memory://'],
        ['sqlite', 'sqlite://./movies.sqlite'],
      ],
    },
    tempFolder,
  )
}
