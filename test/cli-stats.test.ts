import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMovieLog, createMovieLogs } from 'movie-log'
import { expect, it } from 'vitest'
import { formatStats } from '../src/cli/stats'
import { aMovie } from './_movies'
import { CLI } from './_processes'
import { addCorpus, expectedStats } from './_store-suite-search'
import { tempFolders } from './_temp'

// movie-log stats [--from] [--to] [--owner] [--json] (issue 39), from the built command.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const url = `sqlite://${join(tempFolders()('movie-log-cli-stats-'), 'movies.sqlite')}`

function movieLog(args: string[]) {
  const result = spawnSync(process.execPath, [CLI, 'stats', '--store', url, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

it('prints an owner’s statistics as JSON and as a table; a bad month is a usage error', async () => {
  const logs = createMovieLogs(url)
  const added = await addCorpus(logs.of('alice')).finally(() => logs.close())

  const json = movieLog(['--owner', 'alice', '--json', '--from', '2024', '--to', '2025-01'])
  expect(json.code).toBe(0)
  expect(JSON.parse(json.stdout)).toEqual(expectedStats(added, '2024-01', '2025-01'))

  const table = movieLog(['--owner', 'alice'])
  expect(table.code).toBe(0)
  expect(table.stdout).toMatch(/^Total {2}9\n/)
  expect(table.stdout).toMatch(/By year\n {2}2023 {2}1\n {2}2024 {2}6\n {2}2025 {2}2\n/)
  expect(table.stdout).toMatch(
    /Rewatched\n {2}3× {2}Heat {2}https:\/\/www\.imdb\.com\/title\/tt0113277\/\n/,
  )
  // Another owner's diary is its own: nothing counted.
  expect(movieLog(['--owner', 'bob', '--json']).stdout).toContain('"total": 0')

  const refused = movieLog(['--owner', 'alice', '--from', '2024-05-01'])
  expect(refused.code).toBe(2)
  expect(refused.stderr).toMatch(/--from: must be YYYY or YYYY-MM/)
})

it('prints the ratings given (on the stars scale too) and the tags, most first, as written most often (ties: code-point order)', async () => {
  const log = createMovieLog()
  await log.addMovie(aMovie({ rating: 7, tags: ['festival', 'Cinéma club'] }))
  await log.addMovie(aMovie({ rating: 7, tags: ['Festival'] }))
  await log.addMovie(aMovie({ rating: 10 }))
  const table = formatStats(await log.stats())
  expect(table).toMatch(/By rating\n {2}7 \(3\.5★\) {2}2\n {2}10 \(5★\) {3}1\n/)
  expect(table).toMatch(/Tags\n {2}Festival {5}2\n {2}Cinéma club {2}1\n/)
})
