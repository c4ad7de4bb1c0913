/**
 * Cold start: a fresh Node process that imports the built `movie-log` and `movie-log/web`,
 * creates a log in memory, builds the web handler and answers one GET /movies (a `Request`
 * handed to the handler), beside the same shape for hono (one route answering a JSON array) and
 * Node alone. Wall time from spawn to the answer on stdout, runs alternating, medians; then the
 * JS files each one loads. `npm run bench` writes it into RESULTS.md; `npm run bench:cold-start`
 * runs it alone (it builds first). Settings: BENCH_COLD_RUNS (30 per target).
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './median'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 30)

// Each one ESM code for `node --input-type=module -e`, run in the package's folder: `movie-log`
// resolves to the package itself (its `exports`, so dist/), `hono` to node_modules.
const TARGETS: Record<string, string> = {
  'movie-log': `import { createMovieLog } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
const handler = toWebHandler(createMovieLog())
const response = await handler(new Request('http://localhost/movies'))
console.log(response.status, await response.text())`,
  hono: `import { Hono } from 'hono'
const app = new Hono()
app.get('/movies', (c) => c.json([]))
const response = await app.fetch(new Request('http://localhost/movies'))
console.log(response.status, await response.text())`,
  'node alone': `console.log(200, '[]')`,
}

// Loaded before the target, in the module-count run only: it lists every module file the ESM
// loader loads, and at exit every CommonJS one (require.cache, which CommonJS files imported
// from ESM enter too). Hooks run in a thread of their own: they append to a file.
const HOOKS = `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.COLD_START_MODULES, url + '\\n')
  return next(url, context)
}`
const PRELOAD = `import { register, createRequire } from 'node:module'
import { appendFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}))
process.on('exit', () => {
  const files = Object.keys(createRequire(pathToFileURL(process.cwd() + '/').href).cache)
  appendFileSync(process.env.COLD_START_MODULES, files.map((f) => pathToFileURL(f).href + '\\n').join(''))
})`

// Appended to each target, so it runs after the answer is printed: the process's CPU time (every
// thread's, since it started) at its exit, on stderr. Less swayed than wall time by the other
// work of a shared machine.
const CPU_AT_EXIT = `
process.on('exit', () => {
  const { user, system } = process.cpuUsage()
  process.stderr.write(\`cpu-us \${user + system}\\n\`)
})`

export interface ColdStartRow {
  name: string
  answerMs: number[]
  exitMs: number[]
  cpuMs: number[]
  modules: number
  dependencyModules: number
  bytes: number
}

interface ColdRun {
  answerMs: number
  exitMs: number
  cpuMs: number
}

/** One fresh process: ms from spawn to its first output, to its exit, and its CPU time. */
function coldRun(code: string, env = process.env, preload: string[] = []): Promise<ColdRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let answerMs = 0
    let output = ''
    let errors = ''
    const args = [...preload, '--input-type=module', '-e', code + CPU_AT_EXIT]
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.on('data', (chunk: Buffer) => {
      answerMs ||= performance.now() - started
      output += chunk
    })
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk
    })
    child.once('error', reject)
    child.once('close', (exitCode) => {
      const cpu = /^cpu-us (\d+)$/m.exec(errors)
      if (exitCode !== 0 || !output.startsWith('200 ') || !cpu) {
        reject(new Error(`cold start exited ${exitCode}, printed: ${output}${errors}`))
      } else {
        resolve({ answerMs, exitMs: performance.now() - started, cpuMs: Number(cpu[1]) / 1000 })
      }
    })
  })
}

/** The JS files a target loads: how many, how many from node_modules, their bytes. */
async function modulesOf(code: string): Promise<Omit<ColdStartRow, 'name' | keyof ColdRun>> {
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-cold-start-'))
  try {
    const list = join(folder, 'modules.txt')
    const preload = ['--import', `data:text/javascript,${encodeURIComponent(PRELOAD)}`]
    await coldRun(code, { ...process.env, COLD_START_MODULES: list }, preload)
    const files = new Set(
      readFileSync(list, 'utf8')
        .split('\n')
        .filter((url) => url.startsWith('file:'))
        .map((url) => fileURLToPath(url)),
    )
    const all = [...files]
    return {
      modules: all.length,
      dependencyModules: all.filter((file) => file.includes('/node_modules/')).length,
      bytes: all.reduce((sum, file) => sum + statSync(file).size, 0),
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** Builds the package (the cold start imports dist/), then measures every target. */
export async function coldStart(log: (line: string) => void): Promise<ColdStartRow[]> {
  log('cold start: building the package')
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' })
  const names = Object.keys(TARGETS)
  const rows = names.map((name) => ({
    name,
    answerMs: [] as number[],
    exitMs: [] as number[],
    cpuMs: [] as number[],
  }))
  // One warm-up each (the file system cache), then rounds that rotate which target goes first.
  for (const name of names) await coldRun(TARGETS[name] as string)
  for (let round = 0; round < RUNS; round++) {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[(round + i) % rows.length] as (typeof rows)[number]
      const run = await coldRun(TARGETS[row.name] as string)
      row.answerMs.push(run.answerMs)
      row.exitMs.push(run.exitMs)
      row.cpuMs.push(run.cpuMs)
    }
  }
  const result: ColdStartRow[] = []
  for (const row of rows) {
    result.push({ ...row, ...(await modulesOf(TARGETS[row.name] as string)) })
    log(`cold start ${row.name}: median ${median(row.answerMs).toFixed(1)} ms to the answer`)
  }
  return result
}

/** The RESULTS.md section. */
export function coldStartReport(rows: ColdStartRow[]): string {
  const hono = rowOf(rows, 'hono')
  const node = rowOf(rows, 'node alone')
  const table = rows.map((row) => {
    const [ms, cpu] = [median(row.answerMs), median(row.cpuMs)]
    return `| ${row.name} | ${ms.toFixed(1)} | ${median(row.exitMs).toFixed(1)} | ${(ms - median(node.answerMs)).toFixed(1)} | ${(ms / median(hono.answerMs)).toFixed(2)} | ${cpu.toFixed(1)} | ${(cpu / median(hono.cpuMs)).toFixed(2)} | ${row.modules} (${row.dependencyModules}) | ${(row.bytes / 1024).toFixed(0)} |`
  })
  return `## Cold start (a fresh process answers one GET /movies)

Each target is a new \`node --input-type=module -e\` process: movie-log imports the built
\`movie-log\` and \`movie-log/web\`, creates a log in memory, builds the web handler and answers a
\`Request\` for GET /movies; hono defines one route answering a JSON array and answers the same;
"node alone" only prints. Times run from spawn to the answer on stdout (and to the exit), medians
of ${rows[0]?.answerMs.length} runs each, the targets alternating; CPU is the process's own (all threads) at its
exit, which other work on the machine sways less. JS files: the files loaded (from
node_modules in brackets) and their size.

| target | ms to answer | ms to exit | ms above node alone | ratio to hono | CPU ms | CPU ratio | JS files | KiB |
|---|---|---|---|---|---|---|---|---|
${table.join('\n')}
`
}

/** The row of the Targets table: movie-log's time to the answer over hono's. */
export function coldStartTarget(rows: ColdStartRow[]): string {
  const log = rowOf(rows, 'movie-log')
  const hono = rowOf(rows, 'hono')
  const ratio = median(log.answerMs) / median(hono.answerMs)
  // Each round's movie-log run over its hono run: the machine's drift cancels within a round.
  const perRound = median(log.answerMs.map((ms, round) => ms / (hono.answerMs[round] ?? 0)))
  const cpu = median(log.cpuMs) / median(hono.cpuMs)
  const verdict = ratio <= 1.2 ? 'met, and the aim' : ratio <= 1.35 ? 'met' : '**not met**'
  return `| cold start, movie-log / hono <= 1.35 (aim 1.2) | ${ratio.toFixed(2)} (per round ${perRound.toFixed(2)}; CPU ${cpu.toFixed(2)}) | ${verdict} |`
}

function rowOf(rows: ColdStartRow[], name: string): ColdStartRow {
  return rows.find((row) => row.name === name) as ColdStartRow
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await coldStart((line) => console.log(`[bench] ${line}`))
  console.log(`${coldStartReport(rows)}
| target | measured | |
|---|---|---|
${coldStartTarget(rows)}`)
}
