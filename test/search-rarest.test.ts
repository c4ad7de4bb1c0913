import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { createClient } from '@keyv/redis'
import { createMovieLog } from 'movie-log'
import pg from 'pg'
import sqlite3 from 'sqlite3'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { SOLE_OWNER } from '../src/core/driver'
import type { Movie } from '../src/core/movie'
import { parseWordQuery, tagTerm, type WordQuery, withTags } from '../src/core/words'
import { openPostgresDriver } from '../src/drivers/postgres/driver'
import { countTerms, createMemoryTerms, searchTerms } from '../src/drivers/shared/process-terms'
import { rarestFirst } from '../src/drivers/sql/driving'
import { sqlStatements } from '../src/drivers/sql/statements'
import { sqliteDriverOver } from '../src/drivers/sqlite/driver'
import { aMovie } from './_movies'
import { redisSuite } from './_redis-suite'
import { describeWith } from './_services'
import { tempFolders } from './_temp'

// Issue 57: a search or tag filter of several terms is walked from its rarest term, on every
// store: driven by a common one whose movies rarely hold the other, it read most of them (two
// common tags at 100,000 movies: 436 ms on SQLite). Here 40 movies hold the common term and 3
// of them the rare one too, which is the query's prefix (a tag filter's last tag, or the last
// word of `q`): each store is seen reading the rare term's movies and never walking the common
// one's, by the statements, the script's commands or the set it reads, never by time.
const tempFolder = tempFolders()
const closing: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

const COMMON = 40
const BOTH = 3
const theMovies = () =>
  Array.from({ length: COMMON }, (_, n) =>
    n < BOTH
      ? aMovie({ title: `Both ${n}`, notes: 'frequently rarely', tags: ['common', 'rare'] })
      : aMovie({ title: `Common ${n}`, notes: 'frequently', tags: ['common'] }),
  )

/** The queries, each with its common and its rare term: two tags, and two words of `q`. */
const QUERIES: [string, WordQuery, string, string][] = [
  ['two tags', withTags(undefined, ['common', 'rare'].map(tagTerm)), '#common,,', '#rare,,'],
  ['two words', parseWordQuery('frequently rarely') as WordQuery, 'frequently', 'rarely'],
]
const LISTINGS = [
  ['two tags', { tag: ['common', 'rare'] }],
  ['two words', { q: 'frequently rarely' }],
] as const

it.each(QUERIES)('memory: %s are read from the rare term’s movies', (_, query, common, rare) => {
  const terms = createMemoryTerms()
  const byId = new Map<string, Movie>()
  for (const made of theMovies()) {
    const movie = { ...made, id: randomUUID() } as Movie
    byId.set(movie.id, movie)
    countTerms(terms, movie, 1)
  }
  // The ids each word's set gives when walked.
  const walked = new Map<string, number>()
  for (const word of [common, rare]) {
    const ids = terms.words.get(word) as Set<string>
    const counting = new Set(ids)
    const iterate = counting[Symbol.iterator].bind(counting)
    ;(counting as { [Symbol.iterator]: () => Iterator<string> })[Symbol.iterator] = function* () {
      for (const id of iterate()) {
        walked.set(word, (walked.get(word) ?? 0) + 1)
        yield id
      }
    }
    terms.words.set(word, counting)
  }
  expect(query.prefix).toBe(rare)
  expect(searchTerms(terms, query, 50, byId)).toHaveLength(BOTH)
  expect(walked.get(common)).toBeUndefined()
  expect(walked.get(rare)).toBe(BOTH)
})

describe('SQLite', () => {
  it.each(LISTINGS)(
    '%s are read along the rare term’s run of the words index',
    async (_, listing) => {
      const file = join(tempFolder('movie-log-rarest-'), 'movies.sqlite')
      const db = new sqlite3.Database(file)
      closing.push(() => new Promise((done) => db.close(done)))
      const driver = await sqliteDriverOver(db, { namespace: 'rarest' })
      const log = createMovieLog({ kind: 'sqlite', remote: true, open: async () => driver })
      closing.push(() => log.close())
      for (const movie of theMovies()) await log.addMovie(movie)
      await log.stats()
      const statements: string[] = []
      db.on('trace', (sql) => statements.push(sql))
      expect((await log.listMovies({ ...listing, limit: 50 })).movies).toHaveLength(BOTH)
      // The driving word: the first of the words index's run, in the statement as SQLite ran
      // it (its trace comes a turn or so after the statement's answer).
      const driving = () =>
        statements.flatMap((sql) =>
          [
            ...sql.matchAll(
              /movie_log_words w WHERE w\.namespace = '[^']*' AND w\.owner = '[^']*' AND w\.word = '([^']*)'/g,
            ),
          ].map((match) => match[1]),
        )
      const [, query, common, rare] = QUERIES.find(([name]) => name === _) as (typeof QUERIES)[0]
      expect(query.prefix).toBe(rare)
      await expect.poll(driving).toEqual([rare])
      expect(statements.join('\n')).not.toContain(`w.word = '${common}'`)
    },
  )
})

describeWith('POSTGRES_URL', 'PostgreSQL', () => {
  const url = process.env.POSTGRES_URL as string
  const namespace = `rarest-${randomUUID()}`
  const pool = new pg.Pool({ connectionString: url, max: 1 })
  const log = createMovieLog(url, { namespace })
  afterAll(async () => {
    await log.close()
    await pool.end()
    const driver = await openPostgresDriver(url, { namespace, connectTimeoutMs: 2000 })
    await driver.drop(SOLE_OWNER).finally(() => driver.close())
  })

  it.each(QUERIES)(
    '%s: the rare term drives, by a count of each term',
    async (_, query, common, rare) => {
      if ((await log.listMovies({ limit: 1 })).movies.length === 0) {
        for (const movie of theMovies()) await log.addMovie(movie)
      }
      const run = async (statement: string, ...parameters: unknown[]) =>
        (await pool.query(statement, [namespace, SOLE_OWNER, ...parameters])).rows
      expect(await rarestFirst(run, sqlStatements('postgres').terms, query)).toEqual([rare, common])
    },
  )
})

describeWith('REDIS_URL', 'Redis', () => {
  const url = process.env.REDIS_URL as string
  const suite = redisSuite(url)
  const namespace = suite.namespace('rarest')
  const log = createMovieLog(url, { namespace })
  const monitor = createClient({ url })
  const seen: string[] = []
  afterAll(async () => {
    await log.close()
    if (monitor.isOpen) await monitor.close()
  })

  it.each(LISTINGS)('%s are read along the rare term’s sorted set', async (_, listing) => {
    if (!monitor.isOpen) {
      for (const movie of theMovies()) await log.addMovie(movie)
      // Counted in (terms and the ordered sets) before the commands are watched.
      await log.stats()
      await log.listMovies({ q: 'frequently', limit: 1 })
      await monitor.connect()
      await monitor.monitor((line) => {
        if (String(line).includes(namespace)) seen.push(String(line))
      })
    }
    seen.length = 0
    expect((await log.listMovies({ ...listing, limit: 50 })).movies).toHaveLength(BOTH)
    // The page's movies are read last (MGET): once it is seen, so is every command before it.
    await expect.poll(() => seen.some((line) => line.includes('"MGET"'))).toBe(true)
    const [, , common, rare] = QUERIES.find(([name]) => name === _) as (typeof QUERIES)[0]
    // The runs of the words' ordered sets read (in the order added): the rare term's alone.
    const runs = seen.filter((line) => line.includes('"ZRANGE"') && line.includes(':wi:'))
    expect(runs.length).toBeGreaterThan(0)
    for (const line of runs) {
      expect(line).toContain(`:wi:${rare}"`)
      expect(line).not.toContain(`:wi:${common}"`)
    }
  })
})
