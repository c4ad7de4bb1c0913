/**
 * Lighthouse (npm `lighthouse` 12, driving Debian's Chromium) on the diary page as the server
 * serves it: a memory store holding 25 movies, the page at `/`, mobile emulation and simulated
 * throttling (Lighthouse's defaults). Prints the four categories and the layout shift.
 *
 *   npm run bench:lighthouse            (CHROME_PATH defaults to /usr/bin/chromium)
 *
 * test/lighthouse.test.ts runs the same under CI=true and holds the page to performance >= 95
 * and accessibility and best practices at 100.
 */
import { spawn } from 'node:child_process'
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
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          join(ROOT, 'node_modules/lighthouse/cli/index.js'),
          url,
          `--chrome-flags=${flags.join(' ')}`,
          '--only-categories=performance,accessibility,best-practices,seo',
          '--output=json',
          `--output-path=${output}`,
          '--quiet',
          ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
        ],
        {
          env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
          stdio: ['ignore', 'inherit', 'inherit'],
        },
      )
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
    rmSync(folder, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { startServerProcess, stop } = await import('../test/_processes')
  const { createMovieLogClient } = await import('../src/client/index')
  const { aMovie } = await import('../test/_movies')
  const server = await startServerProcess({ MOVIE_LOG_STORE: 'memory://' })
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
