// Preloaded into a child process (node --import): writes its peak resident set size, in KiB,
// to MAX_RSS_FILE when it exits normally. A killed process writes nothing.
//
// The peak of this process's own memory: Linux's VmHWM, read from /proc/self/status. Not
// `process.resourceUsage().maxRSS`: Linux keeps that across exec, so a child reports its
// parent's resident size at the fork when that is larger (a test runner that has seeded 100k
// movies, say), whatever the child itself uses. Elsewhere, maxRSS is all there is.
import { readFileSync, writeFileSync } from 'node:fs'

function peakKiB() {
  try {
    const peak = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))
    if (peak) return Number(peak[1])
  } catch {
    // No /proc: not Linux.
  }
  return process.resourceUsage().maxRSS
}

process.on('exit', () => {
  const file = process.env.MAX_RSS_FILE
  if (file) writeFileSync(file, String(peakKiB()))
})
