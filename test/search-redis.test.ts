import { createMovieLog, type Movie, type MovieLog } from 'movie-log'
import { expect, it } from 'vitest'
import { byDate } from '../src/core/driver'
import { aMovie } from './_movies'
import { redisSuite } from './_redis-suite'
import { describeWith } from './_services'
import { addCorpus, heatPages, walkPages } from './_store-suite-search'

// Search pages on Redis (redis/terms.ts SEARCH_PAGE): a word's movies read in the listing's
// order from its ordered sets, a few hundred at a time; and a log an older movie-log wrote,
// whose words are in no ordered set yet.
const url = process.env.REDIS_URL as string

describeWith('REDIS_URL', 'Redis search pages', () => {
  const suite = redisSuite(url)
  const open = () => {
    const namespace = suite.namespace('search')
    return { namespace, log: createMovieLog(url, { namespace }) }
  }

  it('reads past the first batch of the driving word, in order, missing no match', async () => {
    const { log } = open()
    // 600 movies: `alpha` in half (300, more than a script's batch of a driving word's set),
    // `beta` in a third; both in one in six, spread over the year out of the order added.
    for (let n = 0; n < 600; n++) {
      const month = String((n % 12) + 1).padStart(2, '0')
      const day = String(((n * 7) % 28) + 1).padStart(2, '0')
      const notes = [n % 2 === 0 ? 'alpha' : 'gamma', n % 3 === 0 ? 'beta' : 'delta'].join(' ')
      await log.addMovie(
        aMovie({ title: `Film ${n}`, notes, screenedDate: `2024-${month}-${day}T20:00:00.000` }),
      )
    }
    const both = (m: Movie) => m.notes === 'alpha beta'
    for (const sort of ['added', 'screenedDate', '-screenedDate'] as const) {
      for (const range of [{}, { from: '2024-03', to: '2024-08' }]) {
        const options: Parameters<MovieLog['listMovies']>[0] = { sort, ...range }
        const listed = (await walkPages(log, options, 1000)).filter(both)
        for (const q of ['alpha beta', 'beta alpha', 'alpha be']) {
          const found = await walkPages(log, { ...options, q }, 50)
          expect(found.length, `${q} ${sort}`).toBe(Object.keys(range).length ? 50 : 100)
          expect(found, `${q} ${sort}`).toEqual(listed)
        }
      }
    }
    await log.close()
  })

  it('leaves a prefix of more words than it merges to the core, with the same pages', async () => {
    const { log } = open()
    // `x` starts 140 words, one a movie (PREFIX_WORDS is 128); `x1` eleven.
    for (let n = 0; n < 140; n++) {
      const day = String(((n * 5) % 28) + 1).padStart(2, '0')
      await log.addMovie(
        aMovie({ title: `Film ${n}`, notes: `x${n}`, screenedDate: `2024-05-${day}T20:00:00.000` }),
      )
    }
    for (const sort of ['added', 'screenedDate', '-screenedDate'] as const) {
      const listed = await walkPages(log, { sort }, 1000)
      for (const [q, count] of [
        ['x', 140],
        ['x1', 51],
      ] as const) {
        const found = await walkPages(log, { q, sort }, 30)
        expect(found.length, `${q} ${sort}`).toBe(count)
        expect(found, `${q} ${sort}`).toEqual(listed.filter((m) => m.notes.startsWith(q)))
      }
    }
    await log.close()
  })

  it('puts the words of a log counted by an older movie-log in the ordered sets, once', async () => {
    const { namespace, log } = open()
    const added = await addCorpus(log)
    // Counted in (adds leave their terms to the next read, an older movie-log counted at once);
    // then as the version before search pages left it: words, counters, no ordered sets.
    await log.stats()
    const raw = await suite.connected()
    const tag = `{${namespace}:}`
    const older: string[] = [`${tag}:paged`]
    for await (const batch of raw.scanIterator({ MATCH: `${tag}:w[di]:*`, COUNT: 1000 }))
      older.push(...batch)
    expect(older.length).toBeGreaterThan(2)
    await raw.del(older)
    await log.close()

    const later = createMovieLog(url, { namespace })
    const { heats, filtered } = heatPages(later)
    expect((await heats('screenedDate')).movies).toEqual(filtered([...added].sort(byDate)))
    expect(await raw.sCard(`${tag}:paged`)).toBe(added.length)
    // Written after: in its place; and an edit that takes its words away leaves the sets.
    const fourth = await later.addMovie(
      aMovie({ title: 'Heat', screenedDate: '2024-06-01T12:00:00.000' }),
    )
    expect((await heats('added')).movies).toEqual(filtered([...added, fourth]))
    await later.updateMovie(fourth.id, { title: 'Cool' })
    expect((await heats('added')).movies).toEqual(filtered(added))
    expect((await later.listMovies({ q: 'cinema para' })).movies.map((m) => m.title)).toEqual([
      'Cinéma Paradiso',
    ])
    await later.close()
  })
})
