import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { freePort, portIsFree } from './_ports'
import { type Child, CLI, watch } from './_processes'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

// Each child leads a process group of its own: whatever it leaves behind is killed with it.
const groups: number[] = []
afterEach(() => {
  for (const pid of groups.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {} // the group is gone already
  }
})

function launch(command: string, args: string[], env: Record<string, string>): Child {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', MOVIE_LOG_STORE: 'memory://', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  groups.push(child.pid as number)
  return watch(child)
}

// npm start, its page built from source and its signals: test/fresh-clone.test.ts.

it('runs movie-log serve in its own process: --store, and SIGINT exits 0', async () => {
  const port = await freePort()
  const cli = launch(process.execPath, [CLI, 'serve', '--store', 'memory://'], {
    PORT: String(port),
    MOVIE_LOG_STORE: 'sqlite:///nonexistent/never-used.sqlite',
  })
  const line = await cli.waitForLine(/listening on /)
  expect(line).toContain('(store: memory://;')
  // The page's URL after the API's, for the person who started it.
  expect(line).toMatch(
    /\/movies \(store: memory:\/\/; scrobbles in [^)]+\), the diary at http:\/\/\S+:\d+\/$/,
  )
  expect((await fetch(`http://127.0.0.1:${port}/movies`)).status).toBe(200)
  cli.process.kill('SIGINT')
  expect(await cli.exited).toBe(0)
  expect(await portIsFree(port)).toBe(true)
})

it('lists its subcommands', async () => {
  const cli = launch(process.execPath, [CLI, '--help'], {})
  await cli.exited
  expect(cli.lines.join('\n')).toMatch(/serve\s+Serve the log over HTTP/)
})

it('refuses an option a subcommand does not take, naming it, with exit code 2', async () => {
  // `serve --port` was once ignored: the server came up on PORT's port instead.
  const port = await freePort()
  const serve = launch(process.execPath, [CLI, 'serve', '--port', String(port)], {
    PORT: String(port),
  })
  const outcome = await Promise.race([serve.exited, serve.waitForLine(/listening on /)])
  expect(outcome).toBe(2)
  expect(serve.lines.join('\n')).toContain(
    "unknown option '--port': movie-log serve takes --store, --plugin; the server's settings are environment variables",
  )

  const refused = async (args: string[], message: string) => {
    const cli = launch(process.execPath, [CLI, ...args], {})
    expect(await cli.exited, args.join(' ')).toBe(2)
    expect(cli.lines.join('\n')).toContain(message)
  }
  // A subcommand's subcommand; a value that looks like an option is still the option's value.
  await refused(['user', 'add', 'bob', '--url', '-x', '--tokn'], "unknown option '--tokn'")
  // One dash is short options (-j -s -o -n), not --json; before the subcommand, the root's.
  await refused(['stats', '-json'], "unknown option '-json': movie-log stats takes --store")
  await refused(['--store=memory://', 'stats'], "unknown option '--store': movie-log takes no")
})

// Issue 61 item 6: `--url 'https://h/movies?x=1'` printed addresses whose token was x's value
// (and so logged in full); a fragment kept the token from being sent; javascript: was taken.
it.each([
  ['https://h.example/movies?x=1', 'has a query (?): the webhook URLs add their own (?token=)'],
  ['https://h.example/movies?', 'has a query (?)'],
  ['https://h.example/movies#top', 'has a fragment (#)'],
  ['javascript:alert(1)', 'is not an http:// or https:// URL'],
])(
  "user webhooks and user add refuse --url '%s' with exit code 2, saying why",
  async (url, why) => {
    for (const args of [
      ['user', 'webhooks', '--users', '/nonexistent/users', '--url', url],
      ['user', 'add', 'bob', '--users', '/nonexistent/users', '--url', url],
    ]) {
      const cli = launch(process.execPath, [CLI, ...args], {})
      expect(await cli.exited, args.join(' ')).toBe(2)
      expect(cli.lines.join('\n')).toContain(`--url: '${url}' ${why}`)
    }
  },
)
