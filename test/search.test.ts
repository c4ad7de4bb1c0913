import { createMovieLog, type Movie, type MovieLog } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { FEW_IN_RANGE } from '../src/core/in-range'
import { parseWordQuery, wordsOf } from '../src/core/words'
import { aMovie } from './_movies'
import { walkPages } from './_store-suite-search'

// Searches whose matches are more than the index hands over at once (FEW_IN_RANGE): the
// listing is walked and each movie matched by the tokenizer itself (core/search.ts).
const walk = (log: MovieLog, options: Parameters<MovieLog['listMovies']>[0]) =>
  walkPages(log, options, 50)

describe('search beyond the matches the index hands over at once', () => {
  it('gives the same pages as a filter of the whole log, in every order', async () => {
    const log = createMovieLog()
    const count = FEW_IN_RANGE + 200
    const added: Movie[] = []
    for (let n = 0; n < count; n++) {
      const day = String((n % 28) + 1).padStart(2, '0')
      added.push(
        await log.addMovie(
          aMovie({
            title: `Heat ${n}`,
            notes: `word${n}`,
            screenedDate: `2024-02-${day}T20:00:00.000`,
          }),
        ),
      )
    }
    const byDate = (a: Movie, b: Movie) =>
      a.screenedDate < b.screenedDate
        ? -1
        : a.screenedDate > b.screenedDate
          ? 1
          : a.id < b.id
            ? -1
            : 1
    for (const q of ['heat word', 'heat word1', 'heat 11', 'hea']) {
      const query = parseWordQuery(q)
      const matching = added.filter((movie) => {
        const words = wordsOf(`${movie.title}\n${movie.notes}`)
        return (
          query?.whole.every((word) => words.includes(word)) &&
          words.some((word) => word.startsWith(query.prefix))
        )
      })
      expect(await walk(log, { q }), q).toEqual(matching)
      expect(await walk(log, { q, sort: '-screenedDate', to: '2024-02-14' }), q).toEqual(
        matching
          .filter((movie) => movie.screenedDate <= '2024-02-14T23:59')
          .sort(byDate)
          .reverse(),
      )
    }
    // The counts named: every movie, a share of them, one.
    expect((await walk(log, { q: 'hea' })).length).toBe(count)
    expect((await walk(log, { q: 'heat word1' })).length).toBe(1 + 10 + 100 + 200)
    // The last word a prefix: 11, 110-119, 1100-1199.
    expect((await walk(log, { q: 'heat 11' })).length).toBe(1 + 10 + 100)
  })
})
