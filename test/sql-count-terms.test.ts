import { expect, it } from 'vitest'
import { countTerms } from '../src/drivers/sql/backfill'
import { sqlStatements } from '../src/drivers/sql/statements'
import { aMovie } from './_movies'

// Issue 36: a read on SQLite counts in the rows adds left without terms: those there when it
// asked, and no more, so a writer adding faster than the reader counts never holds it up.
const statements = sqlStatements('sqlite').terms

/** A store where `waiting` rows have no terms, and every batch read finds a full batch more. */
function fasterWriter(waiting: number) {
  const asked: string[] = []
  let made = 0
  let counted = 0
  const query = async (sql: string, parameters: readonly unknown[]) => {
    asked.push(sql)
    if (sql === statements.indexAll) counted += (JSON.parse(String(parameters[2])) as []).length
    if (sql === statements.uncounted) return [{ n: waiting }]
    if (sql === statements.unindexed) {
      if (batches() > 20) throw new Error('still counting: a reader chasing the writer')
      return Array.from({ length: Number(parameters[1]) }, () => {
        const movie = { ...aMovie(), id: `m${made++}` }
        return { owner: '', id: movie.id, movie: JSON.stringify(movie) }
      })
    }
    return []
  }
  const batches = () => asked.filter((sql) => sql === statements.unindexed).length
  // Rows given their terms, and the statements that gave them: one per batch (one owner here).
  const updates = () => counted
  const statementsRun = () => asked.filter((sql) => sql === statements.indexAll).length
  return { query, batches, updates, statementsRun }
}

it.each([
  [0, 0],
  [3, 1],
  [500, 1],
  [1200, 3],
])(
  'counts in the %i rows without terms when asked in %i batches, however many come meanwhile',
  async (waiting, batches) => {
    const store = fasterWriter(waiting)
    await countTerms(store.query, statements, 'ns', true)
    expect(store.batches()).toBe(batches)
    expect(store.updates()).toBe(batches * 500)
    expect(store.statementsRun()).toBe(batches)
  },
)
