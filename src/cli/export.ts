/** `movie-log export`: every movie, streamed a page at a time, as NDJSON, CSV or Letterboxd CSV. */

import { Readable, type Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { defineCommand } from 'citty'
import { letterboxdHeader, letterboxdLines } from '../formats/letterboxd'
import { movieCsvHeader, movieCsvLines } from '../formats/movie-csv'
import type { Movie, MovieLog } from '../index'
import { storeFilesOf } from '../store-files'
import { openLog, storeUrl } from './log-store'
import { type OutFile, openOutFile } from './out-file'
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
    const url = storeUrl(args.store)
    const { log, close } = await openLog(url, args.owner)
    const progress = createProgress('exported')
    let file: OutFile | undefined
    try {
      file = args.out ? await openOutFile(args.out, await storeFilesOf(url)) : undefined
      const count = await writeExport(
        log,
        args.format as ExportFormat,
        file?.stream ?? process.stdout,
        (n) => progress.update(n),
      )
      await file?.commit()
      progress.end()
      if (process.stderr.isTTY) process.stderr.write(`exported ${count} movies\n`)
    } catch (error) {
      if (file) throw await file.discard(error)
      // A reader that stopped reading (`movie-log export | head`) ends the export quietly.
      if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error
    } finally {
      progress.end()
      await close()
    }
  },
})

/** The formats `movie-log export` writes. */
export type ExportFormat = keyof typeof FORMATS

/**
 * Writes every movie of `log` to `out` in `format`, a page at a time, as fast as `out` takes it;
 * ends a file stream (not standard output). Resolves with how many movies were written; rejects
 * with the first error of the store or of `out`, and then reads no further.
 */
export async function writeExport(
  log: MovieLog,
  format: ExportFormat,
  out: Writable,
  onPage: (written: number) => void = () => {},
): Promise<number> {
  const { header, lines } = FORMATS[format]
  let count = 0
  async function* chunks() {
    const first = header()
    if (first) yield first
    for await (const page of moviePages(log)) {
      yield lines(page)
      count += page.length
      onPage(count)
    }
  }
  // The pipeline waits while `out` is behind (memory stays at about one page) and stops the
  // pages when `out` fails.
  await pipeline(Readable.from(chunks()), out, { end: out !== process.stdout })
  return count
}
