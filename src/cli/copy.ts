/**
 * `movie-log copy FROM TO [--owner NAME | --all-owners]`: every movie with its id (of the one
 * diary, of one owner's, or of the one diary and every owner's), then checked; safe to run again.
 */
import { defineCommand } from 'citty'
import { type ImportRow, importMovies, type MovieLog } from '../index'
import { EXIT, UsageError } from './exit'
import { describeRefusal } from './import'
import { openLog, openLogs } from './log-store'
import { moviePages } from './pages'
import { createProgress } from './progress'
import { ownerArg } from './store-arg'
import { type Verification, verifyCopy } from './verify'

/** What the copy of one diary did, as the summary reports it. */
interface DiaryCopy extends Verification {
  copied: number
  skipped: number
  refused: number
  verified: boolean
}

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
    owner: {
      ...ownerArg,
      description:
        "copy that owner's diary into the same owner's diary of TO_URL; default: the one diary",
    },
    'all-owners': {
      type: 'boolean',
      description:
        "copy the one diary and every owner's diary, each into the same one of TO_URL, each verified",
    },
  },
  run: async ({ args }) => {
    if (args['all-owners'] && args.owner !== undefined) {
      throw new UsageError('give --owner NAME or --all-owners, not both')
    }
    const opened: { close(): Promise<void> }[] = []
    const open = async <T extends { close(): Promise<void> }>(opening: Promise<T>) => {
      const store = await opening
      opened.push(store)
      return store
    }
    try {
      const from = await open(openLog(args.from, args.owner))
      const to = await open(openLog(args.to, args.owner))
      const diary = await copyDiary(from.log, to.log)
      if (!args['all-owners']) {
        process.stdout.write(`${JSON.stringify(diary)}\n`)
        if (!diary.verified) process.exitCode = EXIT.failed
        return
      }
      const fromOwners = await open(openLogs(args.from))
      const toOwners = await open(openLogs(args.to))
      const owners: (DiaryCopy & { owner: string })[] = []
      for await (const owner of fromOwners.owners()) {
        const copy = await copyDiary(fromOwners.of(owner), toOwners.of(owner), owner)
        owners.push({ owner, ...copy })
      }
      const failed = owners.filter((each) => !each.verified).map((each) => each.owner)
      for (const owner of failed) {
        process.stderr.write(`owner ${JSON.stringify(owner)}: the copy did not verify\n`)
      }
      const verified = diary.verified && failed.length === 0
      const summary = { ...totalOf([diary, ...owners]), verified, diary, owners, failed }
      process.stdout.write(`${JSON.stringify(summary)}\n`)
      if (!verified) process.exitCode = EXIT.failed
    } finally {
      await Promise.all(opened.map((store) => store.close()))
    }
  },
})

/**
 * Copies one diary into another (ids kept, a movie already there skipped) and verifies it:
 * verified when nothing was refused and every source movie is in the target, field for field.
 * `owner` names the diary in messages and progress.
 */
async function copyDiary(from: MovieLog, to: MovieLog, owner?: string): Promise<DiaryCopy> {
  const named = owner === undefined ? '' : ` ${owner}`
  // On a terminal the bar needs a total: one pass over the ids first.
  const total = process.stderr.isTTY ? await count(from) : undefined
  const copying = createProgress(`copying${named}`)
  let read = 0
  async function* rows(): AsyncGenerator<ImportRow> {
    for await (const page of moviePages(from)) {
      for (const movie of page) yield { line: ++read, movie }
      copying.update(read, total)
    }
  }
  const onRow = (row: { status: string }) => {
    if (row.status === 'refused') copying.end()
  }
  const report = await importMovies(to, rows(), { onRow })
  copying.end()
  const prefix = owner === undefined ? '' : `owner ${JSON.stringify(owner)}: `
  for (const row of report.refused) process.stderr.write(`${prefix}movie ${describeRefusal(row)}\n`)
  const checking = createProgress(`verifying${named}`)
  const verified = await verifyCopy(from, to, (n) => checking.update(n, total))
  checking.end()
  return {
    copied: report.added,
    skipped: report.skipped,
    refused: report.refused.length,
    ...verified,
    verified: report.refused.length === 0 && verified.matching === verified.source,
  }
}

const COUNTS = [
  'copied',
  'skipped',
  'refused',
  'source',
  'matching',
  'missing',
  'different',
  'extra',
] as const

/** The counts of several diaries' copies, added up. */
function totalOf(copies: DiaryCopy[]): Record<(typeof COUNTS)[number], number> {
  const sum = (key: (typeof COUNTS)[number]) => copies.reduce((total, copy) => total + copy[key], 0)
  return Object.fromEntries(COUNTS.map((key) => [key, sum(key)])) as ReturnType<typeof totalOf>
}

async function count(log: MovieLog): Promise<number> {
  let n = 0
  for await (const page of moviePages(log)) n += page.length
  return n
}
