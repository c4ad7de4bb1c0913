import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMovieLog, createMovieLogs, type Movie } from 'movie-log'
import { expect, it } from 'vitest'
import { aMovie } from './_movies'
import { CLI } from './_processes'
import { tempFolders } from './_temp'

// movie-log export / import / copy --owner NAME: one owner's diary of a store with many.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const work = tempFolders()('movie-log-cli-owner-')

function movieLog(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    env: { ...process.env, MOVIE_LOG_STORE: 'memory://' },
    timeout: 60_000,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const ndjson = (...titles: string[]) =>
  titles.map((title) => `${JSON.stringify(aMovie({ title }))}\n`).join('')
const titlesOf = (lines: string) =>
  lines
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as Movie).title)
    .sort()

async function titlesIn(url: string, owner: string): Promise<string[]> {
  const logs = createMovieLogs(url)
  try {
    return (await logs.of(owner).listMovies()).movies.map((movie) => movie.title).sort()
  } finally {
    await logs.close()
  }
}

it('imports into, exports from and copies one owner’s diary with --owner, leaving the others', async () => {
  const a = `sqlite://${join(work, 'a.sqlite')}`
  const b = `sqlite://${join(work, 'b.sqlite')}`

  const alice = movieLog(['import', '-', '--store', a, '--owner', 'alice'], ndjson('Heat', 'Ran'))
  expect([alice.code, JSON.parse(alice.stdout)]).toEqual([0, { added: 2, skipped: 0, refused: 0 }])
  expect(movieLog(['import', '-', '--store', a, '--owner', 'bob'], ndjson('Alien')).code).toBe(0)
  // What the command wrote is what createMovieLogs(url).of(owner) reads, and nothing else moved.
  expect(await titlesIn(a, 'alice')).toEqual(['Heat', 'Ran'])
  expect(await titlesIn(a, 'bob')).toEqual(['Alien'])
  const one = createMovieLog(a)
  expect((await one.listMovies()).movies).toEqual([])
  await one.close()

  const exported = movieLog(['export', '--store', a, '--owner', 'alice'])
  expect(exported.code).toBe(0)
  expect(titlesOf(exported.stdout)).toEqual(['Heat', 'Ran'])
  expect(movieLog(['export', '--store', a]).stdout).toBe('')

  const copied = movieLog(['copy', a, b, '--owner', 'alice'])
  expect([copied.code, JSON.parse(copied.stdout)]).toEqual([
    0,
    expect.objectContaining({ copied: 2, source: 2, matching: 2, verified: true }),
  ])
  const again = movieLog(['copy', a, b, '--owner', 'alice'])
  expect([again.code, JSON.parse(again.stdout)]).toEqual([
    0,
    expect.objectContaining({ copied: 0, skipped: 2, matching: 2, verified: true }),
  ])
  expect(await titlesIn(b, 'alice')).toEqual(['Heat', 'Ran'])
  expect(await titlesIn(b, 'bob')).toEqual([])
})

it('moves the one diary into an owner’s: export piped to import --owner, ids kept', async () => {
  const c = `sqlite://${join(work, 'c.sqlite')}`
  const one = createMovieLog(c)
  const kept = await one.addMovie(aMovie({ title: 'Before the household' }))
  await one.close()
  const moved = movieLog(
    ['import', '-', '--store', c, '--owner', 'alice'],
    movieLog(['export', '--store', c]).stdout,
  )
  expect(JSON.parse(moved.stdout)).toEqual({ added: 1, skipped: 0, refused: 0 })
  const logs = createMovieLogs(c)
  expect((await logs.of('alice').listMovies()).movies).toEqual([kept])
  await logs.close()
})

it('exits 2 for an owner no store can keep', () => {
  for (const owner of ['', 'x'.repeat(257)]) {
    const result = movieLog(['export', '--owner', owner])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^movie-log: --owner: The owner must/m)
  }
})

it('copies the one diary and every owner’s with --all-owners, verified per owner, and again with nothing to copy', async () => {
  const from = `sqlite://${join(work, 'all-from.sqlite')}`
  const to = `sqlite://${join(work, 'all-to.sqlite')}`
  const one = createMovieLog(from)
  await one.addMovie(aMovie({ title: 'The one diary' }))
  await one.close()
  const logs = createMovieLogs(from)
  const owners = { alice: ['Heat', 'Ran'], 'b c:{x}': ['Alien'], Zoë: ['M', 'Up', 'Her'] }
  for (const [owner, titles] of Object.entries(owners)) {
    for (const title of titles) await logs.of(owner).addMovie(aMovie({ title }))
  }
  await logs.close()

  const copied = movieLog(['copy', from, to, '--all-owners'])
  expect(copied.code).toBe(0)
  const summary = JSON.parse(copied.stdout)
  expect(summary).toMatchObject({ copied: 7, skipped: 0, source: 7, matching: 7, verified: true })
  expect(summary.diary).toMatchObject({ copied: 1, source: 1, matching: 1, verified: true })
  expect(summary.owners).toEqual([
    expect.objectContaining({ owner: 'Zoë', copied: 3, matching: 3, verified: true }),
    expect.objectContaining({ owner: 'alice', copied: 2, matching: 2, verified: true }),
    expect.objectContaining({ owner: 'b c:{x}', copied: 1, matching: 1, verified: true }),
  ])
  expect(summary.failed).toEqual([])
  for (const [owner, titles] of Object.entries(owners)) {
    expect(await titlesIn(to, owner)).toEqual([...titles].sort())
  }
  const target = createMovieLog(to)
  expect((await target.listMovies()).movies.map((movie) => movie.title)).toEqual(['The one diary'])
  await target.close()

  const again = movieLog(['copy', from, to, '--all-owners'])
  expect(again.code).toBe(0)
  const rerun = JSON.parse(again.stdout)
  expect(rerun).toMatchObject({ copied: 0, skipped: 7, matching: 7, verified: true })
  expect(rerun.owners.map((each: { skipped: number }) => each.skipped)).toEqual([3, 2, 1])
})

it('exits 1 and names the owner whose copy did not verify, copying the others', async () => {
  const from = `sqlite://${join(work, 'conflict-from.sqlite')}`
  const to = `sqlite://${join(work, 'conflict-to.sqlite')}`
  const logs = createMovieLogs(from)
  for (const owner of ['alice', 'bob', 'carol']) await logs.of(owner).addMovie(aMovie())
  const [bobs] = (await logs.of('bob').listMovies()).movies
  await logs.close()
  // The target's bob holds bob's id with other content.
  const theirs = `${JSON.stringify({ ...bobs, title: 'Not the same' })}\n`
  expect(movieLog(['import', '-', '--store', to, '--owner', 'bob'], theirs).code).toBe(0)

  const copied = movieLog(['copy', from, to, '--all-owners'])
  expect(copied.code).toBe(1)
  expect(copied.stderr).toContain('owner "bob": the copy did not verify')
  expect(copied.stderr).toMatch(/^owner "bob": movie line 1: /m)
  const summary = JSON.parse(copied.stdout)
  expect(summary).toMatchObject({ verified: false, failed: ['bob'], refused: 1, different: 1 })
  expect(summary.owners.map((each: { verified: boolean }) => each.verified)).toEqual([
    true,
    false,
    true,
  ])
  expect(await titlesIn(to, 'carol')).toHaveLength(1)
})

it('exits 2 for --owner with --all-owners', () => {
  const result = movieLog(['copy', 'memory://', 'memory://', '--owner', 'a', '--all-owners'])
  expect(result.code).toBe(2)
  expect(result.stderr).toMatch(/--owner NAME or --all-owners, not both/)
})
