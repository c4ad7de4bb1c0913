/**
 * Suites that need something a bare machine lacks: a Redis or PostgreSQL to talk to, a
 * redis-server to start, or the time of the soak. Without it they are skipped, their title
 * saying why in one line; under CI=true they run, and what is missing fails the run instead.
 */
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { describe, expect, it } from 'vitest'

export const UNDER_CI = process.env.CI === 'true'

/** What a suite needs, and how to tell it is there. */
export type Need = 'REDIS_URL' | 'POSTGRES_URL' | 'redis-server' | 'redis-cluster' | 'CI'

/** Why `need` is not met on this machine, or `undefined` when it is. */
export function missing(need: Need, env: NodeJS.ProcessEnv = process.env): string | undefined {
  switch (need) {
    case 'REDIS_URL':
    case 'POSTGRES_URL':
      return env[need] ? undefined : `set ${need} to run`
    case 'redis-server':
      // A private redis-server is started only where Redis is wanted: REDIS_URL set, or CI.
      if (!env.REDIS_URL && env.CI !== 'true') return 'set REDIS_URL to run (starts redis-server)'
      return onPath('redis-server', env.PATH) ? undefined : 'redis-server is not on PATH'
    case 'redis-cluster':
      // Six redis-server of our own, joined by redis-cli: where asked for (REDIS_CLUSTER=1), or CI.
      if (env.REDIS_CLUSTER !== '1' && env.CI !== 'true')
        return 'set REDIS_CLUSTER=1 to run (starts 6 redis-server)'
      return ['redis-server', 'redis-cli'].every((command) => onPath(command, env.PATH))
        ? undefined
        : 'redis-server or redis-cli is not on PATH'
    case 'CI':
      return env.CI === 'true' ? undefined : 'runs under CI=true'
  }
}

/**
 * `describe(name, body)` when `need` is met; otherwise skipped with the reason in its title, or
 * under CI=true one failing test that names what is missing (a skipped suite would pass unseen).
 */
export function describeWith(need: Need, name: string, body: () => void): void {
  describeUnless(missing(need), need, name, body)
}

/** As `describeWith`, for a need this file does not know: `reason` says what is missing. */
export function describeUnless(
  reason: string | undefined,
  need: string,
  name: string,
  body: () => void,
): void {
  if (reason === undefined) describe(name, body)
  else if (UNDER_CI) {
    describe(name, () => {
      it(`has ${need} under CI`, () => {
        expect.fail(`${need}: ${reason}; CI must run this suite`)
      })
    })
  } else describe.skip(`${name} (skipped: ${reason})`, body)
}

function onPath(command: string, path = ''): boolean {
  return path.split(delimiter).some((folder) => folder && existsSync(join(folder, command)))
}
