/**
 * Servers run unpinned by default, as users run them (issue 62: pinned, one harness showed
 * POST ratios twice those users meet). BENCH_PIN=1 gives the server and the load generator a
 * core each (`taskset`, where installed): neither waits on the other's scheduling, so runs
 * vary less.
 */
import { spawnSync } from 'node:child_process'
import { cpus } from 'node:os'

export const SERVER_CPU = 0
export const LOAD_CPU = 1

const enabled =
  process.env.BENCH_PIN === '1' &&
  cpus().length >= 2 &&
  spawnSync('taskset', ['--version']).error === undefined

export const pinning = enabled
  ? `servers on CPU ${SERVER_CPU}, load generator on CPU ${LOAD_CPU} (taskset)`
  : 'not pinned'

/** `command args` run on one CPU, as `[command, args]` for spawn. */
export function onCpu(cpu: number, command: string, args: string[]): [string, string[]] {
  return enabled ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args]
}
