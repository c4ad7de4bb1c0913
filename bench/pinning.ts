/**
 * On a machine of few cores, the server and the load generator each get a core of their own
 * (`taskset`, where installed): neither waits on the other's scheduling, so runs vary less.
 * BENCH_PIN=0 leaves placement to the scheduler.
 */
import { spawnSync } from 'node:child_process'
import { cpus } from 'node:os'

export const SERVER_CPU = 0
export const LOAD_CPU = 1

const enabled =
  process.env.BENCH_PIN !== '0' &&
  cpus().length >= 2 &&
  spawnSync('taskset', ['--version']).error === undefined

export const pinning = enabled
  ? `servers on CPU ${SERVER_CPU}, load generator on CPU ${LOAD_CPU} (taskset)`
  : 'not pinned'

/** `command args` run on one CPU, as `[command, args]` for spawn. */
export function onCpu(cpu: number, command: string, args: string[]): [string, string[]] {
  return enabled ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args]
}
