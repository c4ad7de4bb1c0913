/**
 * `npm run bench:catalog` (and a section of `npm run bench`): `movie-log catalog load` of a
 * synthetic title.basics.tsv.gz of 1,000,000 movies, made here (shaped as IMDb's, with
 * titles drawn from a Zipf-like vocabulary, accents and original titles among them), its time
 * and the command's peak memory; then `find` over the loaded catalog, 10,000 lookups (a title
 * and its year, a title alone, the first words of a title), p50 and p99. Goals: under 60 s and
 * 256 MiB, p99 under 5 ms. BENCH_CATALOG_ROWS changes the size.
 */
import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createGzip } from 'node:zlib'

const ROWS = Number(process.env.BENCH_CATALOG_ROWS ?? 1_000_000)
const LOOKUPS = 10_000
const ROOT = new URL('..', import.meta.url).pathname

export interface CatalogBench {
  rows: number
  loadSeconds: number
  peakMiB: number
  findP50Ms: number
  findP99Ms: number
  /** p99 of `SELECT 1` on SQLite's thread, timed the same way: what the machine adds. */
  idleP99Ms: number
  found: number
  cpuSeconds: number
}

// A fixed sequence (mulberry32), so that every run loads the same titles.
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'to',
  'vi',
  'ber',
  'dan',
  'él',
  'gor',
  'hin',
  'jö',
  'lam',
  'mor',
  'nis',
  'pra',
  'qua',
  'ris',
  'sten',
  'tul',
  'ven',
  'wat',
  'yor',
  'zé',
]
const COMMON = [
  'the',
  'of',
  'a',
  'love',
  'night',
  'man',
  'last',
  'day',
  'in',
  'and',
  'dead',
  'life',
  'world',
  'story',
  'house',
  'return',
]

/** Writes the synthetic file; answers the queries to ask afterwards (some titles, their years). */
async function writeBasics(file: string): Promise<{ title: string; year: number }[]> {
  const next = random(58)
  const words = Array.from({ length: 20000 }, () => {
    const count = 2 + Math.floor(next() * 3)
    return Array.from(
      { length: count },
      () => SYLLABLES[Math.floor(next() * SYLLABLES.length)],
    ).join('')
  })
  // Zipf-like: the first words of the list far more often than the last.
  const word = () =>
    next() < 0.15
      ? (COMMON[Math.floor(next() * COMMON.length)] as string)
      : (words[Math.floor(words.length * next() ** 2)] as string)
  const gzip = createGzip({ level: 6 })
  const out = createWriteStream(file)
  gzip.pipe(out)
  gzip.write(
    'tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres\n',
  )
  const samples: { title: string; year: number }[] = []
  const every = Math.max(1, Math.floor(ROWS / LOOKUPS))
  let lines: string[] = []
  for (let row = 1; row <= ROWS; row++) {
    // IMDb's titles: one word in about one of seven, mostly two to four.
    const draw = next()
    const length = draw < 0.15 ? 1 : draw < 0.45 ? 2 : draw < 0.75 ? 3 : 4 + Math.floor(next() * 3)
    const title = Array.from({ length }, word)
      .join(' ')
      .replace(/^./, (c) => c.toUpperCase())
    const original = next() < 0.3 ? Array.from({ length }, word).join(' ') : title
    const year = 1900 + Math.floor(next() * 126)
    const type = next() < 0.9 ? 'movie' : 'tvMovie'
    lines.push(
      `tt${String(row).padStart(7, '0')}\t${type}\t${title}\t${original}\t0\t${year}\t\\N\t${60 + Math.floor(next() * 120)}\tDrama\n`,
    )
    if (row % every === 0 && samples.length < LOOKUPS) samples.push({ title, year })
    if (lines.length === 10_000) {
      if (!gzip.write(lines.join(''))) await once(gzip, 'drain')
      lines = []
    }
  }
  gzip.end(lines.join(''))
  await once(out, 'close')
  return samples
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] as number

/** The whole bench, in a temp folder removed at the end. */
export async function catalogRun(log: (line: string) => void): Promise<CatalogBench> {
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-bench-catalog-'))
  try {
    const basics = join(folder, 'title.basics.tsv.gz')
    log(`catalog: writing ${ROWS.toLocaleString('en')} rows`)
    const samples = await writeBasics(basics)
    const rssFile = join(folder, 'rss')
    const started = performance.now()
    // GNU time for the command's CPU seconds (user + system); the preload for its peak memory.
    const loaded = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        '%U %S',
        '-o',
        join(folder, 'cpu'),
        process.execPath,
        '--import',
        join(ROOT, 'test/_max-rss.mjs'),
        join(ROOT, 'dist/cli.js'),
        'catalog',
        'load',
        basics,
        '--store',
        `sqlite://${join(folder, 'movies.sqlite')}`,
      ],
      { encoding: 'utf8', env: { ...process.env, MAX_RSS_FILE: rssFile, MOVIE_LOG_CATALOG: '' } },
    )
    const loadSeconds = (performance.now() - started) / 1000
    if (loaded.status !== 0) throw new Error(`catalog load failed: ${loaded.stderr}`)
    log(`catalog: ${loaded.stdout.trim()} in ${loadSeconds.toFixed(1)} s`)
    const peakMiB = Number(readFileSync(rssFile, 'utf8')) / 1024
    const [user = 0, system = 0] = readFileSync(join(folder, 'cpu'), 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number)
    const cpuSeconds = user + system
    const { openCatalog } = await import(join(ROOT, 'dist/sqlite.js'))
    const catalog = openCatalog(join(folder, 'movies.sqlite.catalog.sqlite'))
    const sqlite3 = (await import('sqlite3')).default
    const baseline = new sqlite3.Database(':memory:')
    const times: number[] = []
    const idle: number[] = []
    let found = 0
    try {
      await catalog.find({ title: 'warm up' })
      for (const [index, sample] of samples.entries()) {
        // A title and its year; every fifth without the year; every tenth its first word alone.
        const query =
          index % 10 === 0
            ? { title: sample.title.split(' ')[0] as string }
            : index % 5 === 0
              ? { title: sample.title }
              : sample
        const at = performance.now()
        const answer = await catalog.find(query)
        times.push(performance.now() - at)
        // The same trip to SQLite's thread doing nothing (SELECT 1): what the machine adds.
        const turn = performance.now()
        await new Promise((done) => baseline.get('SELECT 1', done))
        idle.push(performance.now() - turn)
        if (answer.length > 0) found++
      }
    } finally {
      await catalog.close()
      baseline.close()
    }
    times.sort((a, b) => a - b)
    idle.sort((a, b) => a - b)
    return {
      idleP99Ms: percentile(idle, 0.99),
      cpuSeconds,
      rows: ROWS,
      loadSeconds,
      peakMiB,
      findP50Ms: percentile(times, 0.5),
      findP99Ms: percentile(times, 0.99),
      found,
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** The figures as a Markdown table. */
export function catalogReport(result: CatalogBench): string {
  return `| rows | load s (goal < 60) | load CPU s | peak MiB (goal < 256) | find p50 ms | find p99 ms (goal < 5) | SELECT 1 p99 ms | lookups answered |
|---|---|---|---|---|---|---|---|
| ${result.rows.toLocaleString('en')} | ${result.loadSeconds.toFixed(1)} | ${result.cpuSeconds.toFixed(1)} | ${result.peakMiB.toFixed(0)} | ${result.findP50Ms.toFixed(2)} | ${result.findP99Ms.toFixed(2)} | ${result.idleP99Ms.toFixed(2)} | ${result.found} / ${LOOKUPS} |`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(catalogReport(await catalogRun((line) => console.log(`[bench] ${line}`))))
}
