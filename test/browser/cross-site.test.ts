// Issue 61 item 1: a page on another site posted plain forms (multipart, text/plain,
// urlencoded) and no-cors fetches to the scrobble routes, which need no preflight, and each
// added a movie to a server without a token. In a real Chromium, from pages on two other
// origins (another site, and the same site on another port), nothing is added; a media server's
// delivery (no Origin, from Node), a page of an origin MOVIE_LOG_CORS_ORIGINS allows and a page
// of the server's own origin still write.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium, NO_BROWSER } from '../_browser'
import { aMovie } from '../_movies'
import { type ServerProcess, startServerProcess, stop } from '../_processes'
import { FINISHED, fixture, requestInit } from '../_scrobble'
import { describeUnless } from '../_services'

// Each route and what its source sends, as JSON text.
const PAYLOADS: Record<string, string> = {
  'scrobble/plex': JSON.stringify(fixture('plex-movie-scrobble')),
  'scrobble/emby': JSON.stringify(fixture('emby-movie-stop')),
  'scrobble/jellyfin': JSON.stringify(fixture('jellyfin-movie-stop')),
  'scrobble/generic': JSON.stringify(fixture('generic-movie')),
  '': JSON.stringify(aMovie()),
}
// Per route: three forms and two no-cors fetches (text and a form).
const PER_ROUTE = 5
const ATTACKS = Object.keys(PAYLOADS).length * PER_ROUTE

/** The attacking page: every form submitted into a frame of its own, every fetch sent. */
function attackPage(api: string): string {
  const forms: string[] = []
  const fetches: string[] = []
  for (const [route, json] of Object.entries(PAYLOADS)) {
    const action = `${api}${route ? `/${route}` : ''}`
    const field = (name: string, value: string) =>
      `<input type="hidden" name="${attribute(name)}" value="${attribute(value)}">`
    const form = (enctype: string, fields: string) => {
      const frame = `f${forms.length}`
      forms.push(
        `<iframe name="${frame}"></iframe><form method="post" target="${frame}" action="${action}" enctype="${enctype}">${fields}</form>`,
      )
    }
    form('multipart/form-data', field('payload', json) + field('data', json))
    // name=value as text/plain: valid JSON once the value closes what the name opened.
    form('text/plain', field(`${json.slice(0, -1)},"pad":"`, '"}'))
    form('application/x-www-form-urlencoded', field('payload', json))
    fetches.push(
      `fetch(${JSON.stringify(action)}, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(json)} })`,
      `fetch(${JSON.stringify(action)}, { method: 'POST', mode: 'no-cors', body: (() => { const f = new FormData(); f.set('payload', ${JSON.stringify(json)}); f.set('data', ${JSON.stringify(json)}); return f })() })`,
    )
  }
  return `<!doctype html><title>evil</title>${forms.join('\n')}
<script>
for (const form of document.forms) form.submit();
${fetches.map((call) => `${call}.catch(() => {});`).join('\n')}
</script>`
}

const attribute = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;')

/** A plain web server answering every path with `html`, on `host`. */
async function pageServer(host: string, html: () => string): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html())
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  return server
}
const portOf = (server: Server) => (server.address() as AddressInfo).port

describeUnless(NO_BROWSER, 'Chromium', 'writes a browser sends from another origin', () => {
  let log: ServerProcess
  let evil: Server
  let friend: Server
  let browser: Browser

  beforeAll(async () => {
    evil = await pageServer('127.0.0.1', () => attackPage(log.url))
    friend = await pageServer('127.0.0.2', () => '<!doctype html><title>friend</title>')
    log = await startServerProcess({
      MOVIE_LOG_STORE: 'memory://',
      MOVIE_LOG_CORS_ORIGINS: `http://127.0.0.2:${portOf(friend)}`,
    })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    if (log) await stop(log)
    for (const server of [evil, friend]) await new Promise((done) => server?.close(done))
  })

  const titles = async () =>
    ((await (await fetch(log.url)).json()) as { title: string }[]).map((movie) => movie.title)
  const posts = () => log.lines.filter((line) => /^POST \/movies\S* \d{3} /.test(line))

  async function open(url: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage()
    page.setDefaultTimeout(20_000)
    await page.goto(url)
    return page
  }

  it.each([
    ['another site', 'localhost'],
    ['the same site on another port', '127.0.0.1'],
  ])('from %s: forms and no-cors fetches to every write add nothing', async (_what, host) => {
    const before = posts().length
    const page = await open(`http://${host}:${portOf(evil)}/`)
    // Every request reached the server: its request log has a line for each.
    await expect.poll(() => posts().length - before, { timeout: 20_000 }).toBe(ATTACKS)
    expect(
      posts()
        .slice(before)
        .filter((line) => !/ 403 /.test(line)),
    ).toEqual([])
    expect(await titles()).toEqual([])
    await page.context().close()
  })

  it("a media server's delivery, an allowed origin and the server's own page still write", async () => {
    const plex = FINISHED.plex?.() as NonNullable<ReturnType<NonNullable<typeof FINISHED.plex>>>
    expect((await fetch(`${log.url}/scrobble/plex`, requestInit(plex))).status).toBe(201)

    // The client's add, as a page makes it: a JSON POST, in CORS mode.
    const addFrom = (page: Page, title: string) =>
      page.evaluate(
        ([url, body]) =>
          fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          }).then((response) => response.status),
        [log.url, JSON.stringify(aMovie({ title }))] as const,
      )
    expect(await addFrom(await open(`http://127.0.0.2:${portOf(friend)}/`), 'From a friend')).toBe(
      201,
    )
    expect(await addFrom(await open(new URL('/docs', log.url).href), 'From the page')).toBe(201)
    expect(await titles()).toEqual(['The Shawshank Redemption', 'From a friend', 'From the page'])
  })
})
