/**
 * The runtime matrix's parts (test/ci/runtime-*.test.ts): an app folder that imports the built
 * package by its public names, a server of runtime-tests/ started in another runtime, and the
 * HTTP suite's target on it, each target a fresh diary there.
 */
import { execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMovieLogClient } from 'movie-log/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkClient } from '../runtime-tests/client.ts'
import { httpContract, type RuntimeLimits } from './_http-suite'
import { checkedAgainstDocument, type HttpTargetFactory } from './_http-targets'
import { stop, watch } from './_processes'
import { describeUnless } from './_services'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * A user's app in `folder`: `movie-log` installed as the built package (a link to this
 * repository, whose `exports` name dist/, its dependencies beside it), runtime-tests/ copied
 * in and examples/ beside. Returns the folder.
 */
export function makeApp(folder: string): string {
  mkdirSync(join(folder, 'node_modules'))
  symlinkSync(ROOT, join(folder, 'node_modules', 'movie-log'), 'dir')
  writeFileSync(
    join(folder, 'package.json'),
    '{ "name": "app", "private": true, "type": "module" }',
  )
  cpSync(join(ROOT, 'runtime-tests'), folder, { recursive: true })
  cpSync(join(ROOT, 'examples'), join(folder, 'examples'), { recursive: true })
  return folder
}

/** A server in another runtime, once it listens. */
export interface RuntimeServer {
  origin: string
  close(): Promise<void>
}

/** Runs `command` in `cwd` until it prints `listening <URL>`; stopped by `close`. */
export async function startRuntime(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<RuntimeServer> {
  const child = watch(
    spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
  const line = await child.waitForLine(/^listening http/)
  return {
    origin: new URL(line.slice('listening '.length).trim()).origin,
    close: async () => void (await stop(child)),
  }
}

/** Starts a server before the tests of the enclosing `describe` and stops it after them. */
export function servedBy<Server extends RuntimeServer>(start: () => Promise<Server>): () => Server {
  let server: Server | undefined
  beforeAll(async () => {
    server = await start()
  }, 120_000)
  afterAll(() => server?.close())
  return () => {
    if (!server) throw new Error('the runtime server did not start')
    return server
  }
}

/**
 * The HTTP suite's target on a server of runtime-tests/app.ts: a fresh diary for each target
 * (`x-test-owner`), reached through the client for what a test does to the log itself, and the
 * handler options it sets sent as `x-test-options` (only those JSON carries).
 */
export function remoteTarget(origin: () => string): HttpTargetFactory {
  return checkedAgainstDocument(async (_log, options) => {
    const headers: Record<string, string> = { 'x-test-owner': crypto.randomUUID() }
    if (options) headers['x-test-options'] = JSON.stringify(options)
    return {
      origin: origin(),
      fetch: (path, init) => {
        const sent = new Headers(init?.headers)
        for (const [name, value] of Object.entries(headers)) sent.set(name, value)
        return fetch(origin() + path, { ...init, headers: sent })
      },
      log: createMovieLogClient(`${origin()}/movies`, { headers, retries: 0 }),
      close: async () => {},
    }
  })
}

/** What runtime-tests/client.ts saw, as the client answers on every runtime. */
export function expectClientChecks(seen: unknown): void {
  expect(seen).toEqual({
    added: 'Heat',
    listed: true,
    got: true,
    unknown: true,
    invalid: { name: 'MovieValidationError', fields: ['title', 'releaseYear'] },
    changed: { name: 'MovieNotFoundError', fields: [] },
  })
}

/** A runtime that runs runtime-tests/ as scripts (Bun, Deno): its program and how to run one. */
export interface ScriptRuntime {
  name: string
  /** Its program, or `undefined` when it is not fetched here. */
  binary: string | undefined
  /** The arguments that run a script of the app folder (`['run', '-A', 'deno.ts']`). */
  run(script: string): string[]
  /** Its server script and its client script in runtime-tests/, and its example if any. */
  server: string
  client: string
  example?: string
  /** Its own settings, for every process of it. */
  env: Record<string, string>
  /** Store URLs by name: memory and the runtime's natural store. */
  stores: [string, string][]
  /** What its server does that the handler cannot change. */
  limits?: RuntimeLimits
}

/**
 * The HTTP suite against the runtime's server on each of its stores, and the client run in the
 * runtime against it. Without the runtime: skipped, or under CI=true a failure.
 */
export function describeScriptRuntime(
  runtime: ScriptRuntime,
  tempFolder: (prefix: string) => string,
) {
  const { name, binary } = runtime
  const missing = binary ? undefined : 'run `node --import tsx .ci/runtimes.ts fetch`'
  describeUnless(missing, name, name, () => {
    describe.each(runtime.stores)(`${name} on %s`, (storeName, store) => {
      let folder = ''
      const served = servedBy(() => {
        folder = makeApp(tempFolder(`runtime-${name.toLowerCase()}-`))
        return startRuntime(binary as string, runtime.run(runtime.server), folder, {
          ...runtime.env,
          MOVIE_LOG_STORE: store,
        })
      })
      const origin = () => served().origin
      describe('HTTP contract', () =>
        httpContract(`${name}, ${storeName}`, remoteTarget(origin), 'remote', runtime.limits))
      it(`runs the client on ${name} against it`, () => {
        const output = execFileSync(binary as string, runtime.run(runtime.client), {
          cwd: folder,
          env: { ...process.env, ...runtime.env, MOVIE_LOG_URL: `${origin()}/movies` },
          encoding: 'utf8',
        })
        expectClientChecks(JSON.parse(output))
      })
    })

    const { example: script } = runtime
    // Node's examples run in test/examples.test.ts.
    if (script) {
      it(`runs ${script}`, async () => {
        const folder = makeApp(tempFolder(`example-${name.toLowerCase()}-`))
        const example = await startRuntime(binary as string, runtime.run(script), folder, {
          ...runtime.env,
          PORT: '0',
        })
        try {
          expectClientChecks(await checkClient(`${example.origin}/movies`))
          expect(existsSync(join(folder, 'data', 'movies.sqlite'))).toBe(true)
        } finally {
          await example.close()
        }
      })
    }
  })
}
