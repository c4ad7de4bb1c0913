/**
 * Paired runs: bare h3 and one target under load at the same time, each server's CPU time per
 * request read from /proc. Both run through the same drift of the machine's speed (on this
 * kind of machine, solo runs a few seconds apart differ by up to 2x), so the ratio of their
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

/** Loads both servers at once and returns each one's CPU time per request. */
export async function pairedRun(
  bare: Target,
  target: Target,
  options: LoadOptions,
): Promise<PairedRun> {
  const before = [cpuSeconds(bare), cpuSeconds(target)]
  const [bareLoad, targetLoad] = await Promise.all([
    load(bare.url, options),
    load(target.url, options),
  ])
  const usPerRequest = (server: Target, start: number, requests: number) =>
    ((cpuSeconds(server) - start) * 1e6) / requests
  return {
    bareUs: usPerRequest(bare, before[0] as number, bareLoad.requests),
    targetUs: usPerRequest(target, before[1] as number, targetLoad.requests),
  }
}

// User and system time of the server process (fields 14 and 15 of /proc/PID/stat).
function cpuSeconds(server: Target): number {
  const stat = readFileSync(`/proc/${server.process.pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
}
