// Preloaded into a child process (node --import): writes its peak resident set size, in KiB,
// to MAX_RSS_FILE when it exits normally. A killed process writes nothing.
import { writeFileSync } from 'node:fs'

process.on('exit', () => {
  const file = process.env.MAX_RSS_FILE
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS))
})
