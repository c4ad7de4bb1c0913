/** `movie-log import FILE`: NDJSON, the log's CSV or another service's CSV export into a log. */
import { stat } from 'node:fs/promises'
import { defineCommand } from 'citty'
import { type ImportRowResult, importMovies } from '../index'
import { EXIT, UsageError } from './exit'
import { openLog, storeUrl } from './log-store'
import { loadPlugins, pluginArg } from './plugin-arg'
import { listed, printable } from './printable'
import { createProgress } from './progress'
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
        "auto, ndjson, csv (as export writes it), imdb (IMDb ratings export), or a plug-in's",
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
      const { rows, bytesRead } = await readRows(args.file, args.format)
      const onRow = (row: ImportRowResult) => {
        if (row.status === 'refused') {
          progress.end()
          process.stderr.write(`${describeRefusal(row)}\n`)
        }
        progress.update(bytesRead(), size)
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
