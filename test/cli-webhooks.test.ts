// Issue 60: movie-log webhooks add|list|remove, on a store's diary or one person's of a
// household (--user, as --owner); a private address refused unless MOVIE_LOG_WEBHOOK_PRIVATE=1.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMovieLogs, webhooksOf } from 'movie-log'
import { expect, it } from 'vitest'
import { CLI } from './_processes'
import { tempFolders } from './_temp'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const store = `sqlite://${join(tempFolders()('movie-log-cli-webhooks-'), 'movies.sqlite')}`

function movieLog(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [CLI, 'webhooks', ...args, '--store', store], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, MOVIE_LOG_WEBHOOK_PRIVATE: '', ...env },
    timeout: 60_000,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

it("adds, lists and removes a household member's endpoints, out of the others' reach", async () => {
  const added = movieLog([
    'add',
    'https://example.org/alice',
    '--user',
    'alice',
    '--events',
    'movie.added',
  ])
  expect(added.stderr).toMatch(
    /^added ep_\S+ for movie\.added; its signing secret, shown this once:\n$/,
  )
  expect(added.code).toBe(0)
  expect(added.stdout).toMatch(/^whsec_[A-Za-z0-9+/]+=*\n$/)
  const id = /added (ep_\S+)/.exec(added.stderr)?.[1] as string

  const listed = movieLog(['list', '--owner', 'alice', '--json'])
  expect(JSON.parse(listed.stdout)).toEqual([
    expect.objectContaining({ id, url: 'https://example.org/alice', status: 'active' }),
  ])
  expect(listed.stdout).not.toContain(added.stdout.trim())
  expect(movieLog(['list', '--user', 'alice']).stdout).toBe(
    `${id}  active  https://example.org/alice  (movie.added)\n`,
  )
  // The library reads what the command wrote: the same records.
  const logs = createMovieLogs(store)
  expect((await webhooksOf(logs, 'alice').list()).map((endpoint) => endpoint.id)).toEqual([id])
  await logs.close()

  // Bob has none, and cannot remove Alice's.
  expect(JSON.parse(movieLog(['list', '--user', 'bob', '--json']).stdout)).toEqual([])
  const bobs = movieLog(['remove', id, '--user', 'bob'])
  expect(bobs.code).toBe(1)
  expect(bobs.stderr).toContain(`no endpoint ${id}`)

  const removed = movieLog(['remove', id, '--user', 'alice'])
  expect([removed.code, removed.stderr]).toEqual([0, `removed ${id}\n`])
  expect(JSON.parse(movieLog(['list', '--user', 'alice', '--json']).stdout)).toEqual([])
})

it('refuses an address on this machine unless MOVIE_LOG_WEBHOOK_PRIVATE=1, and bad events', () => {
  const refused = movieLog(['add', 'http://127.0.0.1:8123/api/webhook/movies'])
  expect(refused.code).toBe(2)
  expect(refused.stderr).toContain(
    'URL: is a loopback address (127.0.0.1): set MOVIE_LOG_WEBHOOK_PRIVATE=1 to allow it',
  )
  const events = movieLog(['add', 'https://example.org/', '--events', 'movie.watched'])
  expect(events.code).toBe(2)
  expect(events.stderr).toContain('--events: must be a non-empty list of movie.added')
  expect(JSON.parse(movieLog(['list', '--json']).stdout)).toEqual([])

  const allowed = movieLog(['add', 'http://127.0.0.1:8123/api/webhook/movies'], {
    MOVIE_LOG_WEBHOOK_PRIVATE: '1',
  })
  expect(allowed.code).toBe(0)
  expect(JSON.parse(movieLog(['list', '--json']).stdout)).toHaveLength(1)
})
