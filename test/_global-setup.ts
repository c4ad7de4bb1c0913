/**
 * Built once before any test: the package in dist/ (the command the process tests start as
 * `node dist/cli.js`, and the diary page in dist/page/), and under CI=true the packed tarball
 * the package and install suites put into fresh apps. Building per test file cost a tsx start
 * and a page build (esbuild, brotli at quality 11) for every server a test started.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const TSUP = join(ROOT, 'node_modules', 'tsup', 'dist', 'cli-default.js')

declare module 'vitest' {
  export interface ProvidedContext {
    /** The packed tarball's path under CI=true (its declarations built), else `''`. */
    tarball: string
  }
}

// Each project of the run calls this; the first one builds, in the one main process.
let built: { tarball: string; folder?: string } | undefined

export default function setup(project: TestProject) {
  // A vitest started by a test (test/ci/services.test.ts) runs on the parent's build.
  if (process.env.MOVIE_LOG_BUILT === '1') built ??= { tarball: '' }
  built ??= build(process.env.CI === 'true')
  project.provide('tarball', built.tarball)
  return () => {
    if (built?.folder) rmSync(built.folder, { recursive: true, force: true })
    built = undefined
  }
}

function build(packing: boolean): { tarball: string; folder?: string } {
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  // Declarations only where the tarball ships them: they take ten seconds of the build.
  run(process.execPath, [TSUP, ...(packing ? [] : ['--no-dts'])])
  if (!packing) return { tarball: '' }
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-tarball-'))
  const packArgs = ['pack', '--json', '--ignore-scripts', '--pack-destination', folder]
  const [packed] = JSON.parse(run('npm', packArgs)) as [{ filename: string }]
  return { tarball: join(folder, packed.filename), folder }
}
