/**
 * `movie-log import FILE`: NDJSON, the log's CSV, IMDb's ratings CSV, or a Letterboxd, Trakt or
 * Netflix history into a log.
 */
import { stat } from 'node:fs/promises'
import { defineCommand } from 'citty'
import { type ImportRowResult, importMovies } from '../index'
import { EXIT, UsageError } from './exit'
import { findCatalog } from './find-catalog'
import { type HistoryReport, importHistory, writeUnmatched } from './import-history'
import { openLog, storeUrl } from './log-store'
import { loadPlugins, pluginArg } from './plugin-arg'
import { listed, printable } from './printable'
import { createProgress } from './progress'
import { readHistory } from './read-history'
import { importFormatNames, readRows } from './read-rows'
import { ownerArg, storeArg } from './store-arg'

export default defineCommand({
  meta: {
    name: 'import',
    description: 'Add the movies of a file to the log; given ids are kept, nothing is added twice.',
  },
  args: {
    file: {
      type: 'positional',
      required: true,
      description: 'the file to read, - for standard input',
    },
    store: storeArg,
    owner: ownerArg,
    format: {
      type: 'string',
      default: 'auto',
      description:
        "auto, ndjson, csv (as export writes it), imdb (IMDb ratings export), letterboxd (the zip or diary.csv), trakt (history CSV or JSON), netflix (NetflixViewingHistory.csv), or a plug-in's",
    },
    unmatched: {
      type: 'string',
      valueHint: 'FILE',
      description:
        'where rows the catalog cannot match go, to correct and import again (default: FILE.unmatched.csv, never written over)',
    },
    'date-format': {
      type: 'string',
      valueHint: 'FORM',
      description:
        'the day form of a Netflix history, such as MM/DD/YY or DD/MM/YYYY, when its days do not tell',
    },
    plugin: pluginArg,
  },
  run: async ({ args }) => {
    await loadPlugins(args.plugin)
    const formats = importFormatNames()
    if (!formats.includes(args.format)) {
      throw new UsageError(
        `--format: '${printable(args.format)}' is not one of ${formats.join(', ')}`,
      )
    }
    const size = args.file === '-' ? undefined : await sizeOf(args.file)
    const { log, close } = await openLog(storeUrl(args.store), args.owner)
    const progress = createProgress('importing')
    try {
      const { rows, bytesRead, history } = await readRows(args.file, args.format)
      // A history is read whole before its rows: its progress is in rows, not bytes.
      let settled = 0
      let total: () => [number, number | undefined] = () => [bytesRead(), size]
      const onRow = (row: ImportRowResult) => {
        if (row.status === 'refused') {
          progress.end()
          process.stderr.write(`${describeRefusal(row)}\n`)
        }
        settled += 1
        progress.update(...total())
      }
      if (history) {
        const options = { timeZone: timeZoneOf(process.env), dateFormat: args['date-format'] }
        const read = readHistory(history.bytes, args.file, history.format, options)
        const catalog = await findCatalog(storeUrl(args.store))
        total = () => [settled, read.length]
        const report = await importHistory(log, read, catalog, onRow).finally(() =>
          catalog?.close(),
        )
        progress.end()
        await reportHistory(report, catalog !== undefined, args.unmatched, args.file)
        return
      }
      const report = await importMovies(log, rows, { onRow })
      progress.end()
      const summary = {
        added: report.added,
        skipped: report.skipped,
        refused: report.refused.length,
      }
      process.stdout.write(`${JSON.stringify(summary)}\n`)
      if (summary.refused > 0) process.exitCode = EXIT.failed
    } finally {
      progress.end()
      await close()
    }
  },
})

/**
 * `line 7: URL: is empty ...; Year: ...`, one refused row on one line. Field names come from
 * the file: their control characters are escaped and a long one is cut, as are many issues.
 */
export function describeRefusal(row: ImportRowResult): string {
  const issues = listed(
    row.issues ?? [],
    ({ path, message }) => `${path ? `${printable(path)}: ` : ''}${printable(message, 500)}`,
    { separator: '; ' },
  )
  return `line ${row.line}: ${issues}`
}

/**
 * The history's counts on standard output, and where its unmatched rows went on standard error.
 * Unmatched rows are not a failure (they are kept, to correct); refused rows are (exit 1).
 */
async function reportHistory(
  report: HistoryReport,
  hasCatalog: boolean,
  given: string | undefined,
  input: string,
) {
  const { added, skipped, refused, matched, unmatched, episodes, trailers } = report
  const summary = {
    added,
    skipped,
    refused: refused.length,
    matched,
    unmatched: unmatched.length,
    episodes,
    trailers,
  }
  if (unmatched.length > 0) {
    const path = await writeUnmatched(unmatched, given, input)
    const why = hasCatalog
      ? 'the catalog named none or several IMDb entries (its candidates are in the file)'
      : 'no IMDb catalog is loaded: run movie-log catalog load title.basics.tsv.gz to match titles'
    process.stderr.write(
      `${unmatched.length} ${unmatched.length === 1 ? 'row' : 'rows'} not imported, written to ${path}: ${why}; set their imdbLink and import that file\n`,
    )
  }
  process.stdout.write(`${JSON.stringify(summary)}\n`)
  if (refused.length > 0) process.exitCode = EXIT.failed
}

/** MOVIE_LOG_TIME_ZONE, as the server reads it: an IANA zone; unset, the process's own. */
function timeZoneOf(env: NodeJS.ProcessEnv): string | undefined {
  const timeZone = env.MOVIE_LOG_TIME_ZONE?.trim() || undefined
  try {
    new Intl.DateTimeFormat('en-US', { timeZone })
  } catch {
    throw new UsageError(
      `MOVIE_LOG_TIME_ZONE: '${timeZone}' is not an IANA time zone like Europe/Paris`,
    )
  }
  return timeZone
}

/** The size of the file to import, for the progress bar; a file that is not there is a usage error. */
async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new UsageError(`FILE: ${file} does not exist`)
    }
    throw error
  }
}
