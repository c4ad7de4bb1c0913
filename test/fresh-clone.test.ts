import { spawn } from 'node:child_process'
import { cpSync, existsSync, realpathSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { launchChromium, NO_BROWSER, seriousViolations } from './_browser'
import { freePort, portIsFree } from './_ports'
import { type Child, stop, watch } from './_processes'
import { UNDER_CI } from './_services'
import { tempFolders } from './_temp'

// Issue 26: in a fresh clone (no dist/), `npm start` served the page's unbuilt template, whose
// `{{style}}` and `{{script}}` named no file: no styles, no form, no movies. Here, `npm start` in
// a copy of the source tree with no dist/, as `git clone && npm install` leaves it.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
const folder = tempFolders()
let server: Child | undefined
let origin: string | undefined
let port = 0
afterAll(async () => {
  if (server) await stop(server)
})

/** The source tree `npm start` runs from, copied without dist/, beside the installed packages. */
function freshClone(): string {
  const clone = folder('movie-log-clone-')
  for (const part of [
    'src',
    'adapters',
    'examples',
    'package.json',
    'tsconfig.json',
    'tsup.config.ts',
  ]) {
    cpSync(join(ROOT, part), join(clone, part), { recursive: true })
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(clone, 'node_modules'), 'dir')
  return clone
}

describe('npm start in a fresh clone', () => {
  it('serves a working diary page: its stylesheet and script resolve, no template left', async () => {
    const clone = freshClone()
    expect(existsSync(join(clone, 'dist'))).toBe(false)
    port = await freePort()
    server = watch(
      spawn('npm', ['start'], {
        cwd: clone,
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: String(port),
          MOVIE_LOG_STORE: 'memory://',
          // Not the run's dist/page (vitest.config.ts): a fresh clone builds its page from source.
          MOVIE_LOG_PAGE_DIR: undefined,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    )
    await server.waitForLine(/listening on /)
    origin = `http://127.0.0.1:${port}`

    const page = await fetch(`${origin}/`, { headers: { accept: BROWSER_ACCEPT } })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await page.text()
    expect(html).not.toContain('{{')
    expect(html).toContain('<h1>Movie diary</h1>')
    const style = /<link rel="stylesheet" href="([^"]+)">/.exec(html)?.[1]
    const script = /<script type="module" src="([^"]+)"><\/script>/.exec(html)?.[1]
    for (const [path, type] of [
      [style, 'text/css; charset=utf-8'],
      [script, 'text/javascript; charset=utf-8'],
    ]) {
      expect(path, type).toMatch(/^\/assets\//)
      const asset = await fetch(`${origin}${path}`)
      expect(asset.status, path).toBe(200)
      expect(asset.headers.get('content-type'), path).toBe(type)
      const body = await asset.text()
      expect(body.length, path).toBeGreaterThan(500)
      // Bundled for the browser: no bare import left for it to fail on.
      expect(body, path).not.toMatch(/\bimport\b[^;()]*\bfrom\s*["'](?![./])/)
    }
    // Its service worker too, and text compressed for a browser that takes brotli.
    const worker = await fetch(`${origin}/sw.js`)
    expect(worker.status).toBe(200)
    expect(worker.headers.get('service-worker-allowed')).toBe('/')
    const compressed = await fetch(`${origin}/`, {
      headers: { accept: BROWSER_ACCEPT, 'accept-encoding': 'gzip, deflate, br' },
      // Read the bytes as sent: undici would decode them.
      decompress: false,
    } as RequestInit)
    expect(compressed.headers.get('content-encoding')).toBe('br')
    // A hang guard: npm start builds the package first, which a slow machine takes its time
    // over.
  }, 120_000)

  // Required under CI=true, where a missing Chromium fails the run.
  it.skipIf(NO_BROWSER !== undefined && !UNDER_CI)(
    'shows its diary in Chromium: the empty diary, the add form, no serious axe violation',
    async () => {
      expect(origin, 'the server of the test above').toBeDefined()
      const browser = await launchChromium()
      try {
        const page = await (await browser.newContext()).newPage()
        page.setDefaultTimeout(20_000) // only stops a hung step
        await page.goto(`${origin}/`)
        await expect
          .poll(() => page.locator('#empty').textContent())
          .toContain('Your diary is empty')
        expect(await page.locator('#add-title').isVisible()).toBe(true)
        expect(await seriousViolations(page)).toEqual([])
      } finally {
        await browser.close()
      }
    },
  )

  // Last: it stops the server the tests above use.
  it('stops the server when npm start gets SIGTERM, as systemd and Docker send it', async () => {
    const npm = server as Child
    expect(npm, 'the server of the first test').toBeDefined()
    expect(await portIsFree(port)).toBe(false)
    npm.process.kill('SIGTERM') // npm alone, not its children
    await npm.exited
    await expect.poll(() => portIsFree(port), { interval: 100 }).toBe(true)
    expect(npm.lines.join('\n')).toMatch(/SIGTERM, finishing in-flight requests/)
  })
})
