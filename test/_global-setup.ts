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
import { CHROMIUM, launchChromiumServer } from './_chromium'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const TSUP = join(ROOT, 'node_modules', 'tsup', 'dist', 'cli-default.js')

declare module 'vitest' {
  export interface ProvidedContext {
    /** The packed tarball's path under CI=true (its declarations built), else `''`. */
    tarball: string
    /** The one Chromium the browser files share (`launchChromium` connects), else `''`. */
    chromiumEndpoint: string
  }
}

/**
 * Each project of a run calls this, each in a module scope of its own: what was built is told
 * by the environment of the one main process. MOVIE_LOG_BUILT=1 set by a caller (a vitest
 * started by a test, the Node 24 run) means its build is there already.
 */
export default async function setup(project: TestProject) {
  let teardown: (() => Promise<void> | void) | undefined
  if (process.env.MOVIE_LOG_BUILT !== '1') {
    const packing = process.env.CI === 'true'
    const folder = packing ? mkdtempSync(join(tmpdir(), 'movie-log-tarball-')) : undefined
    process.env.MOVIE_LOG_TARBALL = build(folder)
    process.env.MOVIE_LOG_BUILT = '1'
    if (folder) teardown = () => rmSync(folder, { recursive: true, force: true })
  }
  project.provide('tarball', process.env.MOVIE_LOG_TARBALL ?? '')
  if (project.name !== 'browser' || !CHROMIUM) return teardown
  // One browser for every browser file, each file a connection of its own: launching Chromium
  // per file cost each a second or two of a busy machine's start.
  const chromium = await launchChromiumServer()
  project.provide('chromiumEndpoint', chromium.wsEndpoint())
  const built = teardown
  return async () => {
    await chromium.close()
    await built?.()
  }
}

/** Builds dist/ and, given a folder, packs the tarball into it: its path, or `''`. */
function build(folder: string | undefined): string {
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  // Declarations only where the tarball ships them: they take ten seconds of the build.
  run(process.execPath, [TSUP, ...(folder ? [] : ['--no-dts'])])
  if (!folder) return ''
  const packArgs = ['pack', '--json', '--ignore-scripts', '--pack-destination', folder]
  const [packed] = JSON.parse(run('npm', packArgs)) as [{ filename: string }]
  return join(folder, packed.filename)
}
