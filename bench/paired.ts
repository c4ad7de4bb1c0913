/**
 * Paired runs: bare h3 and one target under load at the same time, each server's CPU time per
 * request read from /proc. Both run through the same drift of the machine's speed (on this
 * kind of machine, solo runs a few seconds apart differed by up to 7x), so the ratio of their
 * costs holds still where a ratio of req/s from alternating runs does not. Linux only.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { type LoadOptions, load } from './load'
import type { Target } from './processes'

export const pairedRunsAvailable = existsSync(`/proc/${process.pid}/stat`)

const ticksPerSecond = pairedRunsAvailable
  ? Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100
  : 100

export interface PairedRun {
  /** Server CPU time per request, in µs. */
  bareUs: number
  targetUs: number
}

/**
 * Loads both servers at once and returns each one's CPU time per request. `helpers`: processes
 * the target hands work to (redis-server), whose time counts as the target's.
 */
export async function pairedRun(
  bare: Target,
  target: Target,
  options: LoadOptions,
  helpers: number[] = [],
  targetFirst = false,
): Promise<PairedRun> {
  const bareCpu = () => cpuSeconds(bare.process.pid as number)
  const targetCpu = () =>
    [target.process.pid as number, ...helpers].reduce((sum, pid) => sum + cpuSeconds(pid), 0)
  const [bareStart, targetStart] = [bareCpu(), targetCpu()]
  // Each load's generator is started in turn: `targetFirst` starts the target's first.
  const [bareLoad, targetLoad] = targetFirst
    ? await Promise.all([load(target.url, options), load(bare.url, options)]).then(
        ([targetRun, bareRun]) => [bareRun, targetRun] as const,
      )
    : await Promise.all([load(bare.url, options), load(target.url, options)])
  return {
    bareUs: ((bareCpu() - bareStart) * 1e6) / bareLoad.requests,
    targetUs: ((targetCpu() - targetStart) * 1e6) / targetLoad.requests,
  }
}

// User and system time of a process (fields 14 and 15 of /proc/PID/stat).
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
}
