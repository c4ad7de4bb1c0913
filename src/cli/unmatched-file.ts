/**
 * Where `movie-log import` writes the rows it could not match, for the person to correct. One
 * file per input, always the same name: it holds the latest run's unmatched rows, written over
 * each run, unless the person has written corrections in it that are not imported yet.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { parse } from 'csv-parse/sync'
import { type UnmatchedRow, unmatchedCsv } from '../formats/unmatched-csv'

/** The unmatched file of an input: `--unmatched FILE`, else `<input>.unmatched.csv` beside it. */
export const unmatchedPathOf = (given: string | undefined, input: string): string =>
  given ?? `${input === '-' ? 'import' : input}.unmatched.csv`

/**
 * What became of the unmatched file: `written` (this run's rows), `emptied` (an earlier run's
 * file, now its header alone: nothing is unmatched), `none` (nothing unmatched, no file), or
 * `kept` (left as it was: it holds corrections not imported yet).
 */
export type UnmatchedFileOutcome = 'written' | 'emptied' | 'none' | 'kept'

/**
 * Writes `rows` to `path`, over what is there, unless what is there holds a correction not
 * imported yet: a row whose `imdbLink` the person filled in and whose entry `isImported` says
 * is not in the diary. Written over, that work would be lost; the person imports it first.
 */
export async function writeUnmatched(
  rows: readonly UnmatchedRow[],
  path: string,
  isImported: (id: string) => Promise<boolean>,
): Promise<UnmatchedFileOutcome> {
  const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (existing === undefined && rows.length === 0) return 'none'
  if (existing !== undefined && (await holdsCorrections(existing, isImported))) return 'kept'
  await writeFile(path, unmatchedCsv(rows))
  return rows.length > 0 ? 'written' : 'emptied'
}

/** Whether an unmatched file holds a row with its imdbLink written in and not imported yet. */
async function holdsCorrections(
  text: string,
  isImported: (id: string) => Promise<boolean>,
): Promise<boolean> {
  let records: string[][]
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true })
  } catch {
    return true // not a CSV any more: the person's file, not ours to write over
  }
  const [header = [], ...rest] = records
  const [id, link] = [header.indexOf('id'), header.indexOf('imdbLink')]
  // Not the columns the command writes: the person's file, not ours to write over.
  if (id < 0 || link < 0) return true
  for (const record of rest) {
    const written = (record[link] ?? '').trim() !== ''
    if (written && !(await isImported((record[id] ?? '').trim()))) return true
  }
  return false
}
