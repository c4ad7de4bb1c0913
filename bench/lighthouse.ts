/**
 * Lighthouse (npm `lighthouse` 12, driving Debian's Chromium) on the diary page as the server
 * serves it: a memory store holding 25 movies, the page at `/`, mobile emulation and simulated
 * throttling (Lighthouse's defaults). Prints the four categories and the layout shift.
 *
 *   npm run bench:lighthouse            (CHROME_PATH defaults to /usr/bin/chromium)
 *
 * test/lighthouse.test.ts runs the same under CI=true and holds the page to performance >= 95
 * and accessibility and best practices at 100.
 *
 * Chromium is started here, not by Lighthouse (whose chrome-launcher left a headless Chromium
 * and its `/tmp/lighthouse.*` profile behind when the run did not end its own way): each run
 * starts one in a process group of its own, with its profile in a temp folder, and ends both
 * in a `finally`, however Lighthouse ended.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** What a run found: category scores out of 100, and the metrics that weigh on performance. */
export interface PageScores {
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
  cumulativeLayoutShift: number
  largestContentfulPaintMs: number
  totalBlockingTimeMs: number
  /** The audits that scored below 1 in accessibility and best practices, with their titles. */
  failing: string[]
}

/** Runs Lighthouse once on `url`. */
export async function lighthouse(
  url: string,
  formFactor: 'mobile' | 'desktop' = 'mobile',
): Promise<PageScores> {
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-lighthouse-'))
  const output = join(folder, 'report.json')
  const flags = [
    '--headless=new',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
  ]
  let chrome: ChildProcess | undefined
  let cli: ChildProcess | undefined
  // Chromium has a process group of its own, which a Ctrl-C at the terminal does not reach: a
  // signal or an exit that skips the `finally` below still ends it (and Lighthouse, which would
  // wait on it), and removes its profile.
  const endNow = () => {
    if (chrome?.pid) signalGroup(chrome.pid, 'SIGKILL')
    if (cli?.exitCode === null && cli.signalCode === null) cli.kill('SIGKILL')
    rmSync(folder, { recursive: true, force: true })
  }
  const onSignal = (signal: NodeJS.Signals) => {
    endNow()
    process.kill(process.pid, signal)
  }
  process.once('exit', endNow).once('SIGINT', onSignal).once('SIGTERM', onSignal)
  try {
    chrome = spawn(
      process.env.CHROME_PATH ?? '/usr/bin/chromium',
      [...flags, '--remote-debugging-port=0', `--user-data-dir=${join(folder, 'profile')}`],
      // A process group of its own: its zygote and renderers end with it.
      { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
    )
    const port = await devToolsPort(chrome)
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          join(ROOT, 'node_modules/lighthouse/cli/index.js'),
          url,
          // Lighthouse finds the Chromium already listening there and launches none of its own.
          `--port=${port}`,
          '--only-categories=performance,accessibility,best-practices,seo',
          '--output=json',
          `--output-path=${output}`,
          '--quiet',
          ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
        ],
        { stdio: ['ignore', 'inherit', 'inherit'] },
      )
      cli = child
      child.once('error', reject)
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`lighthouse exited with ${code}`)),
      )
    })
    const report = JSON.parse(readFileSync(output, 'utf8'))
    const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100)
    const metric = (id: string) => report.audits[id]?.numericValue ?? Number.NaN
    const failing = ['accessibility', 'best-practices'].flatMap((category) =>
      report.categories[category].auditRefs
        .map((ref: { id: string }) => report.audits[ref.id])
        .filter((audit: { score: number | null }) => audit.score !== null && audit.score < 1)
        .map((audit: { id: string; title: string }) => `${category}: ${audit.id} (${audit.title})`),
    )
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      cumulativeLayoutShift: metric('cumulative-layout-shift'),
      largestContentfulPaintMs: metric('largest-contentful-paint'),
      totalBlockingTimeMs: metric('total-blocking-time'),
      failing,
    }
  } finally {
    if (chrome) await endGroup(chrome)
    rmSync(folder, { recursive: true, force: true })
    process.off('exit', endNow).off('SIGINT', onSignal).off('SIGTERM', onSignal)
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: the group is gone already.
  }
}

/** The port Chromium's DevTools listen on, from the line it prints once they do. */
async function devToolsPort(chrome: ChildProcess): Promise<number> {
  let printed = ''
  return new Promise((resolve, reject) => {
    chrome.stderr?.on('data', (chunk: Buffer) => {
      printed += chunk
      const port = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(printed)?.[1]
      if (port) resolve(Number(port))
    })
    chrome.once('error', reject)
    chrome.once('exit', (code, signal) =>
      reject(new Error(`chromium exited (${signal ?? code}) before listening:\n${printed}`)),
    )
  })
}

/** Ends a process and everything in its process group: SIGTERM, then SIGKILL after 5 s. */
async function endGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid as number
  const exited =
    child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit')
  signalGroup(pid, 'SIGTERM')
  const ended = await Promise.race([
    exited.then(() => true),
    new Promise<false>((resolve) => setTimeout(resolve, 5000, false).unref()),
  ])
  // The group's other processes (renderers, the zygote) may outlive the browser by a moment.
  signalGroup(pid, 'SIGKILL')
  if (!ended) await exited
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { startServerProcess, stop } = await import('../test/_processes')
  const { createMovieLogClient } = await import('../src/client/index')
  const { aMovie } = await import('../test/_movies')
  const server = await startServerProcess({ MOVIE_LOG_STORE: 'memory://' })
  // Interrupted, the bench ends its server too (a Ctrl-C reaches it; a `kill` of ours does not).
  const stopServer = (signal: NodeJS.Signals) => {
    server.process.kill('SIGKILL')
    process.kill(process.pid, signal)
  }
  process.once('SIGINT', stopServer).once('SIGTERM', stopServer)
  try {
    const log = createMovieLogClient(server.url)
    for (let n = 0; n < 25; n++) {
      await log.addMovie(
        aMovie({
          title: `Film ${n + 1}`,
          screenedDate: `2024-${String((n % 12) + 1).padStart(2, '0')}-10T20:00:00.000`,
          notes: n % 3 === 0 ? 'Seen at the cinema club, with friends.' : '',
        }),
      )
    }
    const runs = Number(process.env.RUNS ?? 3)
    for (let run = 1; run <= runs; run++) {
      for (const formFactor of ['mobile', 'desktop'] as const) {
        const scores = await lighthouse(`${new URL(server.url).origin}/`, formFactor)
        console.log(`run ${run}, ${formFactor}: ${JSON.stringify(scores)}`)
      }
    }
  } finally {
    await stop(server)
  }
}
