/**
 * What the page tests share: the run's one Chromium (`_chromium.ts`), axe-core injected into
 * the page, and the example server serving the page the run built.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { CHROMIUM } from './_chromium'
import { type ServerProcess, startServerProcess, stop } from './_processes'
import { tempFolders } from './_temp'

export { CHROMIUM, launchChromium } from './_chromium'

const require = createRequire(import.meta.url)

/**
 * Where a test file's screenshots go: with SCREENSHOTS=1, src/page/screenshots/ (the ones the
 * docs show, committed); otherwise a temp folder removed after the file's tests, so that a
 * test run leaves the git tree as it was. Call it at the top of the file.
 */
export function screenshots(): (name: string) => string {
  if (process.env.SCREENSHOTS === '1') return (name) => join(SHOTS, name)
  // Made on the first shot: a file whose tests are skipped (no Chromium) runs no hook to
  // remove a folder made at its top.
  const made = tempFolders()
  let folder: string | undefined
  return (name) => {
    folder ??= made('movie-log-shots-')
    return join(folder, name)
  }
}
const SHOTS = fileURLToPath(new URL('../src/page/screenshots/', import.meta.url))

/**
 * Why the browser suites do not run here, or undefined when they do: they run wherever
 * Chromium is installed, and are skipped without it (under CI=true, where a missing Chromium
 * fails the run instead: see describeUnless).
 */
export const NO_BROWSER = CHROMIUM
  ? undefined
  : 'no Chromium (apt-get install -y chromium, or set CHROMIUM_PATH)'

/** The example server, on memory unless `env` says otherwise, serving the page the run built. */
export async function startSite(env: Record<string, string> = {}) {
  const server: ServerProcess = await startServerProcess({
    MOVIE_LOG_STORE: 'memory://',
    MOVIE_LOG_PAGE_DIR: BUILT_PAGE,
    ...env,
  })
  const origin = new URL(server.url).origin
  return { server, origin, close: () => stop(server) }
}

// The page the run built before any test (test/_global-setup.ts): building it again for each
// file cost a bundle and a brotli pass at quality 11 of a busy machine's time.
const BUILT_PAGE = fileURLToPath(new URL('../dist/page/', import.meta.url))

/** Collects every request a page makes, and every CSP violation it reports. */
export function watchRequests(page: Page) {
  const urls: string[] = []
  const refused: string[] = []
  page.on('request', (request) => urls.push(request.url()))
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) refused.push(message.text())
  })
  return { urls, refused }
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: unknown[] }[]
}

/** Runs axe-core in the page; the serious and critical violations, as `rule: targets` lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE)
  const violations = (await page.evaluate(
    // @ts-expect-error axe is the global the script above defined
    () => axe.run(document).then((result) => result.violations),
  )) as AxeViolation[]
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`)
}

/**
 * A route handler's `abort` or `fallback`, for handlers that may meet a request twice: when a
 * page's routes are removed (`page.unrouteAll`) while a request is in flight, Playwright hands
 * it to the context's handlers again, and the later call finds it handled already (CI saw
 * "route.abort: Route is already handled!" as an unhandled rejection). That is no failure.
 */
export async function settleRoute(settling: Promise<void>): Promise<void> {
  await settling.catch((error: unknown) => {
    if (!/Route is already handled/.test(String(error))) throw error
  })
}

/** The page's movie titles, top to bottom. */
export const titlesOn = (page: Page) => page.locator('#movies li.movie h3').allTextContents()
