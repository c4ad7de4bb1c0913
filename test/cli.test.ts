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
  expect(line).toContain('(store: memory://)')
  // The page's URL after the API's, for the person who started it.
  expect(line).toMatch(/\/movies \(store: memory:\/\/\), the diary at http:\/\/\S+:\d+\/$/)
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
