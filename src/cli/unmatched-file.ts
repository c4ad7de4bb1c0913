/** Where `movie-log import` writes the rows it could not match, for the person to correct. */
import { constants } from 'node:fs'
import { access, writeFile } from 'node:fs/promises'
import { type UnmatchedRow, unmatchedCsv } from '../formats/unmatched-csv'

/**
 * Writes the unmatched rows: to `given` (replaced), else beside the input as
 * `<input>.unmatched.csv`, or `-1`, `-2`... before `.csv` when that is there already, so a file
 * the person is correcting is never written over. Returns where.
 */
export async function writeUnmatched(
  rows: readonly UnmatchedRow[],
  given: string | undefined,
  input: string,
) {
  const base = given ?? `${input === '-' ? 'import' : input}.unmatched`
  let path = given ?? `${base}.csv`
  for (let n = 1; !given && (await exists(path)); n++) path = `${base}-${n}.csv`
  await writeFile(path, unmatchedCsv(rows), { flag: given ? 'w' : 'wx' })
  return path
}

const exists = (path: string) =>
  access(path, constants.F_OK).then(
    () => true,
    () => false,
  )
