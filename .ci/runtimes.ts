/**
 * The JavaScript runtimes besides Node that movie-log is tested on, with binaries from the npm
 * registry, kept in a cache folder of ours (not in package.json: 100 MB for every contributor).
 *
 *   node --import tsx .ci/runtimes.ts fetch        # what .ci/run does after npm ci
 *
 * test/ci/runtimes.test.ts serves the HTTP suite from each (runtime-tests/); workerd comes with
 * miniflare, a devDependency.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { cachedBinary, cacheFolder, fetchIntoCache } from './npm-binary'

/** Each runtime's package on npm (its major pinned by the range) and its program inside. */
export const RUNTIMES = {
  bun: { spec: '@oven/bun-linux-x64@^1.4.5', inside: join('bin', 'bun') },
  deno: { spec: '@deno/linux-x64-glibc@^2.9.6', inside: 'deno' },
} as const

export type RuntimeName = keyof typeof RUNTIMES

/** The cached program of `runtime`, or `undefined` until `fetch` has run. */
export function runtimeBinary(runtime: RuntimeName): string | undefined {
  return cachedBinary(cacheFolder(runtime), 'v', RUNTIMES[runtime].inside)
}

/** Fetches the newest release in the range from the npm registry into the cache. */
export function fetchRuntime(runtime: RuntimeName): string {
  const { spec, inside } = RUNTIMES[runtime]
  return fetchIntoCache(spec, cacheFolder(runtime), inside)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [command] = process.argv.slice(2)
  if (command === 'fetch') {
    for (const runtime of Object.keys(RUNTIMES) as RuntimeName[]) {
      const binary = fetchRuntime(runtime)
      console.log(`${runtime}: ${execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim()}`)
    }
  } else {
    console.error('usage: node --import tsx .ci/runtimes.ts fetch')
    process.exitCode = 2
  }
}
