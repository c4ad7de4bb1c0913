import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CatalogNotLoadedError } from 'movie-log'
import { openCatalog } from 'movie-log/sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import type { CatalogTitle } from '../src/core/catalog-rows'
import { loadCatalogFile } from '../src/store-files'
import { CLI } from './_processes'
import { tempFolders } from './_temp'

// Issue 58: `movie-log catalog load` from IMDb's datasets as published, and `find`, best first.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const FIXTURES = join(ROOT, 'test', 'fixtures', 'imdb-datasets')
const BASICS = join(FIXTURES, 'title.basics.tsv.gz')
const AKAS = join(FIXTURES, 'title.akas.tsv.gz')
const folder = tempFolders()('movie-log-catalog-')
const diary = join(folder, 'movies.sqlite')
const catalogFile = `${diary}.catalog.sqlite`
const catalog = openCatalog(catalogFile)
afterAll(() => catalog.close())

function movieLog(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [CLI, 'catalog', 'load', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, MOVIE_LOG_CATALOG: '', ...env },
    timeout: 60_000,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const tt = (id: string) => `https://www.imdb.com/title/${id}/`
const links = async (title: string, year?: number, limit?: number) =>
  (await catalog.find({ title, year }, limit)).map((entry) => entry.imdbLink)

describe('movie-log catalog load', () => {
  it('answers that no catalog is loaded, naming the command, and makes no file', async () => {
    const error = await catalog.find({ title: 'The Matrix' }).catch((error: unknown) => error)
    expect(CatalogNotLoadedError.is(error)).toBe(true)
    expect((error as Error).message).toContain('movie-log catalog load')
    expect(existsSync(catalogFile)).toBe(false)
  })

  it('loads movies and TV movies beside a SQLite diary, with their other titles', () => {
    const loaded = movieLog([BASICS, AKAS, '--store', `sqlite://${diary}`])
    expect(loaded.stderr).toBe('')
    expect(loaded.code).toBe(0)
    // 20 rows: a short, a series and an episode left out.
    expect(loaded.stdout).toBe(`Loaded 18 movies (29 titles to match) into ${catalogFile}\n`)
  })

  it('finds the same title and year first, case, accents and punctuation ignored', async () => {
    expect(await catalog.find({ title: 'The Matrix', year: 1999 })).toEqual([
      {
        imdbLink: tt('tt0133093'),
        title: 'The Matrix',
        originalTitle: 'The Matrix',
        year: 1999,
        runtimeMinutes: 136,
        match: 'title',
      },
    ])
    expect(await links('THE MATRIX!', 1999)).toEqual([tt('tt0133093')])
    expect(await links('amelie', 2001)).toEqual([tt('tt0211915')])
    expect(await links('Leon the professional')).toEqual([tt('tt0110413')])
  })

  it('finds an original title and another-language title, and only movies', async () => {
    expect(await links('Sen to Chihiro no Kamikakushi', 2001)).toEqual([tt('tt0245429')])
    expect(await links('Die fabelhafte Welt der Amélie')).toEqual([tt('tt0211915')])
    expect(await links('千と千尋の神隠し')).toEqual([tt('tt0245429')])
    expect(await links('Breaking Bad')).toEqual([])
    expect(await links('Carmencita')).toEqual([])
  })

  it('puts the year asked first, a year off next, then titles that start with the words', async () => {
    // Dune (2021)'s own title is "Dune: Part One", its original title "Dune".
    expect(await links('Dune', 2021)).toEqual([tt('tt1160419'), tt('tt0087182'), tt('tt15239678')])
    expect(await links('Dune', 1984)).toEqual([tt('tt0087182'), tt('tt1160419'), tt('tt15239678')])
    expect(await links('Dune')).toEqual([tt('tt0087182'), tt('tt1160419'), tt('tt15239678')])
    expect(await links('The Matrix', 2000)).toEqual([tt('tt0133093')])
    expect(await links('dune part')).toEqual([tt('tt1160419'), tt('tt15239678')])
    expect(await links('Dune', undefined, 1)).toEqual([tt('tt0087182')])
    expect(await links('Hamlet', 1990)).toEqual([tt('tt0099726'), tt('tt0100183')])
  })

  it('keeps an entry without a year or runtime', async () => {
    expect(await catalog.find({ title: 'untitled project' })).toEqual([
      {
        imdbLink: tt('tt9999991'),
        title: 'Untitled Project',
        originalTitle: 'Untitled Project',
        year: undefined,
        runtimeMinutes: undefined,
        match: 'title',
      },
    ])
  })

  it('replaces the catalog whole: a reader sees the old one until the new one is in', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((done) => {
      release = done
    })
    let reached: () => void = () => {}
    const midway = new Promise<void>((done) => {
      reached = done
    })
    async function* titles(): AsyncGenerator<CatalogTitle> {
      yield { id: 1, title: 'Only', originalTitle: 'Only', year: 2000, runtimeMinutes: 90 }
      reached()
      await gate
      yield { id: 2, title: 'Two', originalTitle: 'Two', year: 2001, runtimeMinutes: 91 }
    }
    const loading = loadCatalogFile(catalogFile, { titles: titles() })
    await midway
    // Half loaded: the old catalog still answers, whole.
    expect(await links('The Matrix', 1999)).toEqual([tt('tt0133093')])
    expect(await links('Only')).toEqual([])
    release()
    expect(await loading).toEqual({ titles: 2, names: 2 })
    expect(await links('The Matrix', 1999)).toEqual([])
    expect(await links('Two')).toEqual([tt('tt0000002')])
  })

  it('refuses a file that is not an IMDb dataset, and a server diary without MOVIE_LOG_CATALOG', () => {
    const notImdb = movieLog([
      join(ROOT, 'test', 'fixtures', 'imdb-ratings.csv'),
      '--store',
      `sqlite://${diary}`,
    ])
    expect(notImdb.code).toBe(1)
    expect(notImdb.stderr).toContain("is not IMDb's title.basics.tsv or title.akas.tsv")
    const swapped = movieLog([AKAS, '--store', `sqlite://${diary}`])
    expect(swapped.code).toBe(2)
    expect(swapped.stderr).toContain("is IMDb's title.akas, not title.basics")
    const postgres = movieLog([BASICS, '--store', 'postgres://127.0.0.1:1/none'])
    expect(postgres.code).toBe(2)
    expect(postgres.stderr).toContain('MOVIE_LOG_CATALOG')
    const named = join(folder, 'named.sqlite')
    const elsewhere = movieLog([BASICS, '--store', 'postgres://127.0.0.1:1/none'], {
      MOVIE_LOG_CATALOG: named,
    })
    expect(elsewhere.code).toBe(0)
    expect(existsSync(named)).toBe(true)
  })
})
