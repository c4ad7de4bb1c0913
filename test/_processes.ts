import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from './_ports'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/**
 * The `movie-log` command as the package ships it, built once for the run
 * (test/_global-setup.ts): a process starts in a tenth of the time it took through tsx, and
 * serves the page built beside it. `npm start` from source is tested once, in fresh-clone.
 */
export const CLI = join(ROOT, 'dist', 'cli.js')

/** A child process whose output is collected line by line, and can be waited on. */
export interface Child {
  process: ChildProcess
  /** Every line written so far, stdout and stderr together. */
  lines: string[]
  /**
   * Resolves with the first line matching `pattern`; rejects, with every line, if the process
   * exits first. No clock of its own unless `timeoutMs` is given: a process that hangs without
   * exiting is stopped by the test's own timeout (vitest.config.ts), a hang guard, so a slow
   * machine only waits longer.
   */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>
}

/** Collects a child's output and tells when it exits. */
export function watch(child: ChildProcess): Child {
  const lines: string[] = []
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = []
  let buffered = ''
  const onData = (data: Buffer) => {
    buffered += data.toString()
    const complete = buffered.split('\n')
    buffered = complete.pop() ?? ''
    for (const line of complete) {
      lines.push(line)
      for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(line)
      }
    }
  }
  child.stdout?.on('data', onData)
  child.stderr?.on('data', onData)
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string)

  return {
    process: child,
    lines,
    exited,
    waitForLine: (pattern, timeoutMs) => {
      const seen = lines.find((line) => pattern.test(line))
      if (seen) return Promise.resolve(seen)
      return new Promise<string>((resolve, reject) => {
        const timer =
          timeoutMs === undefined
            ? undefined
            : setTimeout(
                () =>
                  reject(
                    new Error(
                      `no line matching ${pattern} in ${timeoutMs}ms:\n${lines.join('\n')}`,
                    ),
                  ),
                timeoutMs,
              )
        waiters.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer)
            resolve(line)
          },
        })
        exited.then((code) => {
          clearTimeout(timer)
          reject(
            new Error(`exited (${code}) before a line matching ${pattern}:\n${lines.join('\n')}`),
          )
        })
      })
    },
  }
}

/** The example server as `npm start` runs it, in its own process. */
export interface ServerProcess extends Child {
  /** `http://127.0.0.1:PORT/movies` */
  url: string
  port: number
}

/** Runs `movie-log serve` on a free port (PORT cannot be 0), until it listens. */
export async function startServerProcess(
  env: Record<string, string>,
  port?: number,
): Promise<ServerProcess> {
  return onFreePort(port, /cannot listen on .*(available port|EADDRINUSE)/, async (chosen) => {
    const child = launchServer({ PORT: String(chosen), ...env })
    const line = await child.waitForLine(/listening on /)
    const url = /listening on (\S+)/.exec(line)?.[1] as string
    return { ...child, url, port: Number(new URL(url).port) }
  })
}

/**
 * Starts something on `port`, or on a free one: a port found free can be taken by another test
 * before the child binds it, so a start that fails with `taken` is tried on another, up to five
 * times. A port the caller chose is tried once.
 */
async function onFreePort<T>(
  port: number | undefined,
  taken: RegExp,
  start: (port: number) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(port ?? (await freePort()))
    } catch (error) {
      if (port !== undefined || !taken.test(String(error)) || attempt === 5) throw error
    }
  }
}

/** Runs the example server without waiting for it: for starts that are meant to fail. */
export function launchServer(env: Record<string, string>): Child {
  return watch(
    spawn(process.execPath, [CLI, 'serve'], {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
}

/** Stops a child with `signal` and returns how it ended. */
export async function stop(child: Child, signal: NodeJS.Signals = 'SIGTERM') {
  if (child.process.exitCode === null && child.process.signalCode === null)
    child.process.kill(signal)
  return child.exited
}

/** A private redis-server on a free port, so a test can stop it without touching anyone else's. */
interface PrivateRedis extends Child {
  url: string
  port: number
}

export async function startPrivateRedis(
  port?: number,
  extraArgs: string[] = [],
): Promise<PrivateRedis> {
  return onFreePort(port, /Address already in use/, async (chosen) => {
    const child = watch(
      spawn(
        'redis-server',
        [
          '--port',
          String(chosen),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          ...extraArgs,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    )
    await child.waitForLine(/Ready to accept connections/)
    return { ...child, port: chosen, url: `redis://127.0.0.1:${chosen}` }
  })
}

/**
 * A private redis-server in cluster mode, with no slots of its own: it computes CLUSTER
 * KEYSLOT and says `redis_mode:cluster`. Its nodes.conf is written into `folder`.
 */
export function startPrivateClusterNode(folder: string): Promise<PrivateRedis> {
  const config = `${folder}/nodes.conf`
  return startPrivateRedis(undefined, ['--cluster-enabled', 'yes', '--cluster-config-file', config])
}
