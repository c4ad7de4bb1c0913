/**
 * `movie-log import FILE`: NDJSON, the log's CSV, IMDb's ratings CSV, or a Letterboxd, Trakt or
 * Netflix history into a log.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { defineCommand } from 'citty'
import { type ImportFileReport, importFile } from '../formats/import-file'
import { importFormatNames } from '../formats/import-reader'
import { ImportFileError } from '../formats/import-refusal'
import { listed, printable } from '../formats/printable'
import type { ImportRowResult, MovieLog } from '../index'
import { EXIT, UsageError } from './exit'
import { findCatalog } from './find-catalog'
import { bulkStoreUrl, openLog, storeUrl } from './log-store'
import { loadPlugins, pluginArg } from './plugin-arg'
import { createProgress } from './progress'
import { ownerArg, storeArg } from './store-arg'
import { unmatchedPathOf, writeUnmatched } from './unmatched-file'

// A history is read whole (its reviews join its diary, its days' form is told from all of them):
// a bound far above any service's export keeps a wrong file from filling memory.
const MAX_HISTORY_BYTES = 256 * 1024 * 1024

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
        "auto, ndjson, csv (as export writes it), imdb (IMDb ratings export), letterboxd (the zip or diary.csv), trakt (history or ratings, CSV or JSON), netflix (NetflixViewingHistory.csv), or a plug-in's",
    },
    unmatched: {
      type: 'string',
      valueHint: 'FILE',
      description:
        'where rows the catalog cannot match go, to correct and import again (default: FILE.unmatched.csv); written over by each run, unless it holds corrections not imported yet',
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
    const timeZone = timeZoneOf(process.env)
    const opened = await openLog(bulkStoreUrl(storeUrl(args.store)), args.owner)
    const { log } = opened
    // The counts are printed once the store is closed: on SQLite, once the import is on disk.
    let closing: Promise<void> | undefined
    const close = () => {
      closing ??= opened.close()
      return closing
    }
    const progress = createProgress('importing')
    let catalog: Awaited<ReturnType<typeof findCatalog>>
    try {
      const report = await importFile(
        log,
        args.file === '-' ? process.stdin : createReadStream(args.file),
        {
          name: args.file === '-' ? 'standard input' : args.file,
          format: args.format,
          timeZone,
          dateFormat: args['date-format'],
          maxHistoryBytes: MAX_HISTORY_BYTES,
          size,
          // Opened only for a history, and closed once it is imported.
          catalog: async () => {
            catalog = await findCatalog(storeUrl(args.store))
            return catalog
          },
          onProgress: (done, total) => progress.update(done, total),
          onRow: (row) => {
            if (row.status !== 'refused') return
            progress.end()
            process.stderr.write(`${describeRefusal(row)}\n`)
          },
        },
      ).catch((error: unknown) => {
        throw ImportFileError.is(error) ? commandError(error) : error
      })
      progress.end()
      if (report.kind === 'history') {
        const hasCatalog = catalog !== undefined
        await reportHistory(report, {
          log,
          close,
          hasCatalog,
          given: args.unmatched,
          input: args.file,
        })
        return
      }
      if (report.kind === 'ratings') {
        const { rated, skipped, matched, notInDiary, episodes } = report
        const refused = report.refused.length
        const summary = { rated, skipped, refused, matched, notInDiary, episodes }
        await close()
        process.stdout.write(`${JSON.stringify(summary)}\n`)
        if (refused > 0) process.exitCode = EXIT.failed
        return
      }
      const summary = {
        added: report.added,
        skipped: report.skipped,
        refused: report.refused.length,
      }
      await close()
      process.stdout.write(`${JSON.stringify(summary)}\n`)
      if (summary.refused > 0) process.exitCode = EXIT.failed
    } finally {
      progress.end()
      await catalog?.close()
      await close()
    }
  },
})

/**
 * A file refused whole, as the command says it: a day form to name is a usage error naming
 * `--date-format` (exit 2); anything else is the file's (exit 1).
 */
function commandError(error: ImportFileError): Error {
  if (error.option !== 'dateFormat') return new Error(error.message)
  return new UsageError(
    error.suggestion === undefined
      ? `--date-format: ${error.message}`
      : `${error.message} with --date-format, e.g. --date-format ${error.suggestion}`,
  )
}

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
 * The history's counts on standard output, and what became of its unmatched file on standard
 * error. Unmatched rows are not a failure (they are kept, to correct); refused rows are (exit 1).
 */
async function reportHistory(
  report: ImportFileReport,
  context: {
    log: MovieLog
    close: () => Promise<void>
    hasCatalog: boolean
    given: string | undefined
    input: string
  },
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
  const path = unmatchedPathOf(context.given, context.input)
  const isImported = async (id: string) =>
    (await context.log.getMovie(id).catch(() => undefined)) !== undefined
  const outcome = await writeUnmatched(unmatched, path, isImported)
  const rows = `${unmatched.length} ${unmatched.length === 1 ? 'row' : 'rows'} not imported`
  const why = context.hasCatalog
    ? 'the catalog named none or several IMDb entries (its candidates are in the file)'
    : 'no IMDb catalog is loaded: run movie-log catalog load title.basics.tsv.gz to match titles'
  const said = {
    written: `${rows}, written to ${path}: ${why}; set their imdbLink and import that file`,
    emptied: `no row left unmatched: ${path} now lists none`,
    kept: `${rows}; ${path} is left as it is: it holds corrections not imported yet. Import it (movie-log import ${path}), then run this import again to list what is still unmatched`,
    none: undefined,
  }[outcome]
  if (said) process.stderr.write(`${said}\n`)
  await context.close()
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
