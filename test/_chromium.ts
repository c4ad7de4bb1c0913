/**
 * Chromium for the browser tests: Debian's `chromium` driven by playwright-core through its
 * executable path (no browser can be downloaded here). The global setup starts one for the
 * browser project, and each test file connects to it.
 */
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { Browser, BrowserServer } from 'playwright-core'
import { inject } from 'vitest'

/** Where Chromium is: CHROMIUM_PATH, Debian's package, or `chromium` on PATH. */
export const CHROMIUM = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  ...(process.env.PATH ?? '').split(delimiter).map((folder) => folder && join(folder, 'chromium')),
]
  .filter((path): path is string => Boolean(path))
  .find((path) => existsSync(path))

const options = () => ({
  executablePath: CHROMIUM,
  // Root cannot use Chromium's sandbox; CI here runs as root.
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
})

/** Starts the Chromium that the browser files share (the global setup's). */
export async function launchChromiumServer(): Promise<BrowserServer> {
  const { chromium } = await import('playwright-core')
  return chromium.launchServer(options())
}

/**
 * A browser for one test file: a connection to the shared Chromium where the run started one,
 * else a Chromium of its own. Closing it closes what the file opened (its contexts), and the
 * shared browser goes on serving the other files.
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core')
  const endpoint = inject('chromiumEndpoint')
  return endpoint ? chromium.connect(endpoint) : chromium.launch(options())
}
