import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createOpenApiDocument } from '../../src/http/openapi/document'
import { launchChromium, NO_BROWSER } from '../_browser'
import { freePort } from '../_ports'
import { describeUnless, describeWith } from '../_services'

// The docs site as `npm run docs:build` makes it (dead links fail that build), its snippets
// compiled against the built package (`npm run docs:check`), and the OpenAPI reference page:
// Scalar and the document served by the site itself. Half a minute of builds: under CI=true.
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const DOCS = join(ROOT, 'docs')
const SITE = join(DOCS, '.vitepress/dist')
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
const npm = (script: string) =>
  execFileSync('npm', ['run', script], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' })

/** Every page's source below docs/, as the path of the HTML the build makes of it. */
function builtPages(): string[] {
  return readdirSync(DOCS, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md') && !path.startsWith('.vitepress'))
    .map((path) => path.replace(/\.md$/, '.html'))
    .sort()
}

describeWith('CI', 'the docs site', () => {
  beforeAll(() => {
    // `npm run docs:check` without its build: dist/ (declarations included under CI=true) is
    // the run's, built by test/_global-setup.ts; a rebuild here would clean it under the tests
    // that start dist/cli.js meanwhile.
    const snippets = ['-p', 'docs/snippets']
    execFileSync(process.execPath, [TSC, ...snippets], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: 'pipe',
    })
    npm('docs:build')
  }, 300_000)

  it('builds every page', () => {
    const missing = builtPages().filter((page) => !existsSync(join(SITE, page)))
    expect(builtPages()).toContain('reference/openapi.html')
    expect(missing).toEqual([])
  })

  it('serves the OpenAPI document made from source, and Scalar bundle from node_modules', () => {
    const document = JSON.parse(readFileSync(join(SITE, 'openapi.json'), 'utf8'))
    expect(document).toEqual(createOpenApiDocument('/movies'))
    const bundle = join(ROOT, 'node_modules/@scalar/api-reference/dist/browser/standalone.js')
    expect(statSync(join(SITE, 'scalar/standalone.js')).size).toBe(statSync(bundle).size)
  })

  it('makes the reference page request nothing from another host', () => {
    const html = readFileSync(join(SITE, 'reference/openapi.html'), 'utf8')
    // What a page loads: scripts, images, frames, stylesheets and preloads, CSS urls.
    const requests = [
      ...html.matchAll(/\ssrc="([^"]*)"/g),
      ...html.matchAll(/<link\b[^>]*\shref="([^"]*)"/g),
      ...html.matchAll(/url\(['"]?([^'")]*)/g),
    ].map((match) => match[1]!)
    expect(requests.length).toBeGreaterThan(0)
    expect(requests.filter((url) => /^(https?:)?\/\//.test(url))).toEqual([])
  })
})

describeUnless(
  NO_BROWSER ?? (process.env.CI === 'true' ? undefined : 'runs under CI=true'),
  NO_BROWSER ? 'Chromium' : 'CI',
  'the OpenAPI reference page in Chromium',
  () => {
    let server: Server | undefined
    let origin = ''
    beforeAll(async () => {
      if (!existsSync(join(SITE, 'reference/openapi.html'))) npm('docs:build')
      server = createServer((request, response) => {
        const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname))
        const file = [path, `${path}.html`, join(path, 'index.html')]
          .map((candidate) => join(SITE, candidate))
          .find((candidate) => existsSync(candidate) && statSync(candidate).isFile())
        if (!file) return void response.writeHead(404).end()
        const type = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json' }
        response.writeHead(200, {
          'content-type': `${type[extname(file) as keyof typeof type] ?? 'application/octet-stream'}; charset=utf-8`,
        })
        response.end(readFileSync(file))
      })
      const port = await freePort()
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve))
      origin = `http://127.0.0.1:${port}`
    }, 300_000)
    afterAll(
      () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    )

    it('renders every operation of the document, loading nothing from another host', async () => {
      const browser = await launchChromium()
      try {
        const page = await browser.newPage()
        const foreign: string[] = []
        page.on('request', (request) => {
          if (!request.url().startsWith(origin)) foreign.push(request.url())
        })
        await page.goto(`${origin}/reference/openapi`)
        await expect
          .poll(() => page.getByText('Add a movie', { exact: true }).count())
          .toBeGreaterThan(0)
        expect(foreign).toEqual([])
      } finally {
        await browser.close()
      }
    }, 120_000)
  },
)
