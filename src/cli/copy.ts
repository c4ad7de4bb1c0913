/** `movie-log copy FROM TO`: every movie with its id, then checked; safe to run again. */
import { defineCommand } from 'citty'
import { type ImportRow, importMovies } from '../index'
import { EXIT } from './exit'
import { describeRefusal } from './import'
import { type OpenLog, openLog } from './log-store'
import { moviePages } from './pages'
import { createProgress } from './progress'
import { verifyCopy } from './verify'

export default defineCommand({
  meta: {
    name: 'copy',
    description:
      'Copy every movie, with its id, from one store to another, and verify the copy (count and content).',
  },
  args: {
    from: {
      type: 'positional',
      required: true,
      valueHint: 'FROM_URL',
      description: 'the store to copy from',
    },
    to: {
      type: 'positional',
      required: true,
      valueHint: 'TO_URL',
      description: 'the store to copy into',
    },
  },
  run: async ({ args }) => {
    const opened: OpenLog[] = []
    try {
      const from = await openLog(args.from)
      opened.push(from)
      const to = await openLog(args.to)
      opened.push(to)
      // On a terminal the bar needs a total: one pass over the ids first.
      const total = process.stderr.isTTY ? await count(from) : undefined
      const copying = createProgress('copying')
      let read = 0
      async function* rows(): AsyncGenerator<ImportRow> {
        for await (const page of moviePages(from.log)) {
          for (const movie of page) yield { line: ++read, movie }
          copying.update(read, total)
        }
      }
      const onRow = (row: { status: string }) => {
        if (row.status === 'refused') copying.end()
      }
      const report = await importMovies(to.log, rows(), { onRow })
      copying.end()
      for (const row of report.refused) process.stderr.write(`movie ${describeRefusal(row)}\n`)
      const checking = createProgress('verifying')
      const verified = await verifyCopy(from.log, to.log, (n) => checking.update(n, total))
      checking.end()
      const ok = report.refused.length === 0 && verified.matching === verified.source
      const summary = {
        copied: report.added,
        skipped: report.skipped,
        refused: report.refused.length,
        ...verified,
        verified: ok,
      }
      process.stdout.write(`${JSON.stringify(summary)}\n`)
      if (!ok) process.exitCode = EXIT.failed
    } finally {
      await Promise.all(opened.map((log) => log.close()))
    }
  },
})

async function count({ log }: OpenLog): Promise<number> {
  let n = 0
  for await (const page of moviePages(log)) n += page.length
  return n
}
