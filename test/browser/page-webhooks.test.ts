import { createMovieLogClient } from 'movie-log/client'
import type { Browser, Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium, NO_BROWSER, screenshots, seriousViolations, startSite } from '../_browser'
import { aMovie } from '../_movies'
import { startReceiver } from '../_receiver'
import { describeUnless } from '../_services'

// The owner's webhooks from the page (issue 60), in a real Chromium: the "Share and follow"
// control adds an endpoint pointing at a real receiver, shows its secret once (the one the
// deliveries are signed with), lists it with its status, and removes it; a refused URL is said
// beside its field. The docs' webhooks-1280.png.
const shot = screenshots()

describeUnless(NO_BROWSER, 'Chromium', 'webhooks from the page', () => {
  let browser: Browser
  const sites: Awaited<ReturnType<typeof startSite>>[] = []

  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await Promise.all(sites.map((site) => site.close()))
  })

  async function openControl(env: Record<string, string> = {}) {
    const site = await startSite(env)
    sites.push(site)
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    page.setDefaultTimeout(20_000) // only stops a hung step
    await page.goto(`${site.origin}/`)
    await page.click('#share summary')
    return { site, page }
  }
  const listed = (page: Page) => page.getByText('No endpoint yet.').waitFor()

  const statusOf = (page: Page) => page.locator('#share section [role="status"]').textContent()
  const reopen = async (page: Page) => {
    await page.click('#share summary')
    await page.click('#share summary')
  }

  it('adds an endpoint, shows its secret once, lists it with its status and removes it', async () => {
    const { site, page } = await openControl({ MOVIE_LOG_WEBHOOK_PRIVATE: '1' })
    await listed(page)
    const receiver = await startReceiver()

    // A URL the server refuses: said beside the field, the keyboard left on it, nothing stored.
    await page.fill('#hook-url', 'ftp://example.org/hooks')
    await page.press('#hook-url', 'Enter')
    await expect
      .poll(() => statusOf(page))
      .toBe('The server refused: url must be an http: or https: URL')
    expect(await page.locator('#hook-url-error').textContent()).toBe(
      'Must be an http: or https: URL.',
    )
    expect(await page.locator('#hook-url').getAttribute('aria-invalid')).toBe('true')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('hook-url')

    // The receiver, told of adds and edits: typed and sent from the keyboard.
    await page.fill('#hook-url', receiver.url)
    await page.getByRole('checkbox', { name: 'movie.deleted' }).uncheck()
    await page.press('#hook-url', 'Enter')
    const secret = page.getByLabel(/copy it now, it is not shown again/)
    await secret.waitFor()
    const shown = await secret.inputValue()
    expect(shown).toMatch(/^whsec_[A-Za-z0-9+/=]+$/)
    expect(await statusOf(page)).toBe(`Added ${receiver.url}: the next change is sent to it.`)
    expect(await page.locator('#hook-url').getAttribute('aria-invalid')).toBeNull()
    const item = page.locator('#share li', { hasText: receiver.url })
    await expect.poll(() => item.textContent()).toContain('movie.added, movie.updated. Active')
    expect(await seriousViolations(page)).toEqual([])
    await page.screenshot({ path: shot('webhooks-1280.png'), fullPage: true })

    // The secret shown is the one the deliveries are signed with.
    const log = createMovieLogClient(site.server.url)
    receiver.answerNext(500)
    await log.addMovie(aMovie({ title: 'Heat' }))
    const [failed, delivered] = await receiver.waitFor(2, 30_000)
    expect(failed?.answered).toBe(500)
    new Webhook(shown).verify(delivered?.body as string, delivered?.headers ?? {})

    // Shown once: closed and opened again, the control lists the endpoint, and no secret.
    await reopen(page)
    await expect.poll(() => item.textContent()).toContain('Active')
    expect(await page.content()).not.toContain('whsec_')
    expect(await page.locator('#hook-secret').count()).toBe(0)

    // Removed by its button, named by the URL it removes.
    await page.getByRole('button', { name: `Remove ${receiver.url}` }).click()
    await page.getByText('No endpoint yet.').waitFor()
    expect(await statusOf(page)).toBe(`Removed ${receiver.url}: nothing more is sent to it.`)
    const left = await fetch(`${site.server.url}/webhooks`)
    expect(await left.json()).toEqual([])
    expect(await seriousViolations(page)).toEqual([])
  })

  it('shows a failed delivery in the list: the error and when', async () => {
    const { site, page } = await openControl({ MOVIE_LOG_WEBHOOK_PRIVATE: '1' })
    await listed(page)
    const receiver = await startReceiver()
    receiver.answerNext(503, 503, 503)
    await page.fill('#hook-url', receiver.url)
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await page.getByLabel(/copy it now/).waitFor()
    await createMovieLogClient(site.server.url).addMovie(aMovie({ title: 'Alien' }))
    // The deliverer writes the error after the attempt: the list read once it has.
    await expect
      .poll(async () => (await (await fetch(`${site.server.url}/webhooks`)).json())[0].lastError)
      .not.toBeNull()
    await reopen(page)
    const item = page.locator('#share li', { hasText: receiver.url })
    await expect.poll(() => item.textContent()).toMatch(/Active, trying again: answered 503 \(.+\)/)
  })

  it('says why a receiver on 127.0.0.1 is refused on a server that does not allow it', async () => {
    const { page } = await openControl()
    await listed(page)
    const receiver = await startReceiver()
    await page.fill('#hook-url', receiver.url)
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await expect.poll(() => statusOf(page)).toContain('MOVIE_LOG_WEBHOOK_PRIVATE=1')
    expect(await statusOf(page)).toMatch(/^The server refused: url is a loopback address/)
    expect(await page.locator('#hook-url-error').textContent()).toMatch(/^Is a loopback address/)
    expect(await page.getByText('No endpoint yet.').count()).toBe(1)
    expect(await seriousViolations(page)).toEqual([])
  })

  it('on a server with a token, lists nothing before it is given, and asks for it to add', async () => {
    const { page } = await openControl({
      MOVIE_LOG_TOKEN: 'hook-token',
      MOVIE_LOG_WEBHOOK_PRIVATE: '1',
    })
    await expect.poll(() => statusOf(page)).toMatch(/^Your token is needed to show this/)
    const receiver = await startReceiver()
    await page.fill('#hook-url', receiver.url)
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await page.locator('dialog#token').waitFor({ state: 'visible' })
    await page.fill('#token-input', 'hook-token')
    await page.keyboard.press('Enter')
    await page.getByLabel(/copy it now/).waitFor()
    await expect.poll(() => page.locator('#share li').textContent()).toContain(receiver.url)
  })
})
