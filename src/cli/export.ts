/** `movie-log export`: every movie, streamed a page at a time, as NDJSON, CSV or Letterboxd CSV. */

import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import type { Writable } from 'node:stream'
import { defineCommand } from 'citty'
import { letterboxdHeader, letterboxdLines } from '../formats/letterboxd'
import { movieCsvHeader, movieCsvLines } from '../formats/movie-csv'
import type { Movie, MovieLog } from '../index'
import { openLog, storeUrl } from './log-store'
import { moviePages } from './pages'
import { createProgress } from './progress'
import { ownerArg, storeArg } from './store-arg'

const FORMATS = {
  ndjson: { header: () => '', lines: (movies: readonly Movie[]) => ndjsonLines(movies) },
  csv: { header: movieCsvHeader, lines: movieCsvLines },
  letterboxd: { header: letterboxdHeader, lines: letterboxdLines },
}

const ndjsonLines = (movies: readonly Movie[]) =>
  movies.map((movie) => `${JSON.stringify(movie)}\n`).join('')

export default defineCommand({
  meta: { name: 'export', description: 'Write every movie of the log, oldest added first.' },
  args: {
    store: storeArg,
    owner: ownerArg,
    format: {
      type: 'enum',
      options: Object.keys(FORMATS),
      default: 'ndjson',
      description: 'ndjson (one movie a line), csv, or letterboxd (the CSV Letterboxd imports)',
    },
    out: {
      type: 'string',
      valueHint: 'FILE',
      description: 'write here (default: standard output)',
    },
  },
  run: async ({ args }) => {
    const { log, close } = await openLog(storeUrl(args.store), args.owner)
    const out: Writable = args.out ? createWriteStream(args.out) : process.stdout
    const progress = createProgress('exported')
    try {
      const count = await writeExport(log, args.format as ExportFormat, out, (n) =>
        progress.update(n),
      )
      progress.end()
      if (process.stderr.isTTY) process.stderr.write(`exported ${count} movies\n`)
    } finally {
      progress.end()
      await close()
    }
  },
})

/** The formats `movie-log export` writes. */
export type ExportFormat = keyof typeof FORMATS

/**
 * Writes every movie of `log` to `out` in `format`, a page at a time; ends a file stream (not
 * standard output). Resolves with how many movies were written.
 */
export async function writeExport(
  log: MovieLog,
  format: ExportFormat,
  out: Writable,
  onPage: (written: number) => void = () => {},
): Promise<number> {
  const { header, lines } = FORMATS[format]
  let count = 0
  await write(out, header())
  for await (const page of moviePages(log)) {
    await write(out, lines(page))
    count += page.length
    onPage(count)
  }
  if (out !== process.stdout) {
    out.end()
    await once(out, 'finish')
  }
  return count
}

/** Writes `text`, waiting while the reader is behind: memory stays at about one page. */
async function write(out: Writable, text: string): Promise<void> {
  if (text && !out.write(text)) await once(out, 'drain')
}
