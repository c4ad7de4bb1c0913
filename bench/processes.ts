/** Server processes for the benchmark, each on its own port, started and stopped by the run. */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { onCpu, SERVER_CPU } from './pinning'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** `movie-log serve` from source, as `npm start` runs it. */
export const SERVE = ['src/cli/index.ts', 'serve']

/** An h3 app mounting the built package (dist), as the harness measured movie-log. */
export const MOUNTED = ['bench/mounted-h3.mjs']

export interface Target {
  name: string
  url: string
  process: ChildProcess
  stop(): Promise<void>
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * Runs a script with its arguments on `node` (this process's unless given); waits for its port.
 * A `.mjs` file runs on plain node, as an app in production does; TypeScript (`SERVE`) through tsx.
 */
export function startTarget(
  name: string,
  script: string[],
  env: Record<string, string>,
  node = process.execPath,
): Promise<Target> {
  const loader = script[0]?.endsWith('.mjs') ? [] : ['--import', 'tsx']
  return startServer(name, node, [...loader, ...script], env)
}

/** json-server 1.0 beta on a db.json with an empty `movies` collection, in `folder`. */
export function startJsonServer(folder: string, node: string): Promise<Target> {
  const db = join(folder, 'db.json')
  writeFileSync(db, JSON.stringify({ movies: [] }))
  const bin = join(ROOT, 'node_modules', 'json-server', 'lib', 'bin.js')
  return startServer('json-server', node, [bin, db], {}, (port) => ['--port', String(port)])
}

/** A PostgreSQL database of the run's own, dropped after. */
export async function startPostgres(
  admin: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `movie_log_bench_${randomBytes(4).toString('hex')}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  const url = new URL(admin)
  url.pathname = `/${name}`
  return {
    url: url.href,
    drop: async () => {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    },
  }
}

async function startServer(
  name: string,
  executable: string,
  argv: string[],
  env: Record<string, string>,
  portArgs: (port: number) => string[] = () => [],
): Promise<Target> {
  const port = await freePort()
  // taskset execs the command: the child's pid is the server's.
  const [command, args] = onCpu(SERVER_CPU, executable, [...argv, ...portArgs(port)])
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    // The server logs every request: sent nowhere, as a production log would be cheap.
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await waitForPort(port)
  return {
    name,
    url: `http://127.0.0.1:${port}/movies`,
    process: child,
    stop: async () => {
      child.kill('SIGTERM')
      // Killed by a signal, a child has a signalCode and no exitCode.
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((resolve) => child.once('exit', resolve))
      }
    },
  }
}

/** A private redis-server, so the benchmark never touches anyone's data. */
export async function startRedis(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort()
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  )
  await waitForPort(port)
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: async () => {
      child.kill('SIGKILL')
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((resolve) => child.once('exit', resolve))
      }
    },
  }
}

/** Resident memory of a process, in MiB. */
export function rssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024
}

export async function waitForPort(port: number, seconds = 20): Promise<void> {
  for (let attempt = 0; attempt < seconds * 10; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => resolve(socket.end() && true))
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await delay(100)
  }
  throw new Error(`nothing listens on port ${port} after ${seconds} s`)
}
