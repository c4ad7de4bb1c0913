import { createMovieLogClient, type Movie, versionOf } from 'movie-log/client'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  launchChromium,
  NO_BROWSER,
  seriousViolations,
  settleRoute,
  startSite,
  titlesOn,
  watchRequests,
} from '../_browser'
import { describeUnless } from '../_services'

// The diary page in a real Chromium against a real example server whose token guards writes:
// one person's session, step by step, with axe-core run on each state the page reaches.
const TOKEN = 'page-test-token'

describeUnless(NO_BROWSER, 'Chromium', 'the diary page', () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let browser: Browser
  let page: Page
  let requests: ReturnType<typeof watchRequests>
  // The log behind the page's back, as another device would change it.
  let elsewhere: ReturnType<typeof createMovieLogClient>
  const stored = async () => (await elsewhere.listMovies()).movies

  beforeAll(async () => {
    site = await startSite({ MOVIE_LOG_TOKEN: TOKEN })
    elsewhere = createMovieLogClient(site.server.url, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    browser = await launchChromium()
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    // This window gets no change feed: it is the device that learns of a change made elsewhere
    // only when the server answers 412 (its feed late or cut), which these tests are about.
    // Following the feed is test/page-live.test.ts.
    await context.route(
      (url) => url.pathname === '/movies',
      (route) =>
        settleRoute(
          /text\/event-stream/.test(route.request().headers().accept ?? '')
            ? route.abort('internetdisconnected')
            : route.fallback(),
        ),
    )
    page = await context.newPage()
    // Only stops a hung step: no step is bound by the machine's speed.
    page.setDefaultTimeout(20_000)
    page.on('dialog', (dialog) => dialog.accept())
    requests = watchRequests(page)
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  const fillAdd = async (fields: Record<string, string>) => {
    for (const [name, value] of Object.entries(fields)) await page.fill(`#add-${name}`, value)
    await page.click('button:has-text("Add to the diary")')
  }
  const itemOf = (title: string) => page.locator('li.movie', { hasText: title })

  it('shows a new user an empty diary that says what to do, from this host only', async () => {
    const response = await page.goto(`${site.origin}/`)
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'")
    await expect.poll(() => page.locator('#empty').textContent()).toContain('Your diary is empty')
    expect(await page.locator('#empty').isVisible()).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    expect(requests.urls.filter((url) => new URL(url).origin !== site.origin)).toEqual([])
  })

  it('asks for the token before the first add, and again when it is wrong', async () => {
    await fillAdd({
      title: 'Heat',
      screenedDate: '2024-05-01T20:30',
      releaseYear: '1995',
      imdbLink: 'https://www.imdb.com/title/tt0113277/',
    })
    const dialog = page.locator('dialog#token')
    await dialog.waitFor({ state: 'visible' })
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('token-input')
    expect(await seriousViolations(page)).toEqual([])
    await page.fill('#token-input', 'not-the-token')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('#token-error').textContent()).toContain('did not accept')
    expect(await dialog.isVisible()).toBe(true)
    await page.fill('#token-input', TOKEN)
    await page.keyboard.press('Enter')
    await expect.poll(() => titlesOn(page)).toEqual(['Heat (1995)'])
    expect((await stored()).map((movie) => movie.title)).toEqual(['Heat'])
  })

  it('shows what the server refused beside each field, and stores nothing', async () => {
    await fillAdd({ title: ' ', releaseYear: '1700', imdbLink: 'https://example.com/heat' })
    const error = (field: string) => page.locator(`#add-${field}-error`).textContent()
    await expect.poll(() => error('releaseYear')).toContain('1870')
    expect(await error('title')).not.toBe('')
    expect(await error('screenedDate')).not.toBe('')
    expect(await error('imdbLink')).toMatch(/imdb/i)
    expect(await page.getAttribute('#add-releaseYear', 'aria-invalid')).toBe('true')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('add-title')
    expect(await seriousViolations(page)).toEqual([])
    expect(await stored()).toHaveLength(1)
  })

  // The body of the next PATCH the page sends, and its If-Match.
  const nextPatch = () =>
    page
      .waitForRequest((request) => request.method() === 'PATCH')
      .then((request) => ({ body: request.postDataJSON(), ifMatch: request.headers()['if-match'] }))

  it('edits a movie, sending the version it shows and only the fields changed', async () => {
    const [shown] = (await stored()) as [Movie]
    await itemOf('Heat').locator('button:has-text("Edit")').click()
    await page.fill('[id$="-notes"]:not(#add-notes)', 'Seen twice.')
    expect(await seriousViolations(page)).toEqual([])
    const patch = nextPatch()
    await page.click('button:has-text("Save")')
    expect(await patch).toEqual({
      body: { notes: 'Seen twice.' },
      ifMatch: `"${versionOf(shown)}"`,
    })
    await expect.poll(() => itemOf('Heat').locator('.notes').textContent()).toBe('Seen twice.')
    expect((await stored())[0]?.notes).toBe('Seen twice.')
  })

  it('meets a 412 when the movie changed elsewhere, shows the new version, then saves over it', async () => {
    await itemOf('Heat').locator('button:has-text("Edit")').click()
    const [heat] = (await stored()) as [Movie]
    await elsewhere.updateMovie(heat.id, { title: 'Heat (1995 cut)' }, { ifMatch: versionOf(heat) })
    await page.fill('[id$="-notes"]:not(#add-notes)', 'Third time.')
    await page.click('button:has-text("Save")')
    const notice = page.locator('li.movie .notice')
    await expect.poll(() => notice.textContent()).toContain('changed this movie elsewhere')
    expect(await notice.textContent()).toContain('Heat (1995 cut)')
    expect((await stored())[0]?.notes).toBe('Seen twice.')
    expect(await seriousViolations(page)).toEqual([])
    // The form shows the version now stored with the person's edit; saving again sends the
    // edit alone, so the title changed on the other device stays.
    const title = page.locator('[id$="-title"]:not(#add-title)')
    expect(await title.inputValue()).toBe('Heat (1995 cut)')
    expect(await page.inputValue('[id$="-notes"]:not(#add-notes)')).toBe('Third time.')
    const [now] = (await stored()) as [Movie]
    const patch = nextPatch()
    await page.click('button:has-text("Save")')
    expect(await patch).toEqual({ body: { notes: 'Third time.' }, ifMatch: `"${versionOf(now)}"` })
    await expect.poll(() => itemOf('Heat').locator('.notes').textContent()).toBe('Third time.')
    expect((await stored())[0]).toMatchObject({ title: 'Heat (1995 cut)', notes: 'Third time.' })
    expect(await titlesOn(page)).toEqual(['Heat (1995 cut) (1995)'])
  })

  it('does not delete a movie changed elsewhere, and deletes it when asked again', async () => {
    const [heat] = (await stored()) as [Movie]
    await elsewhere.updateMovie(
      heat.id,
      { notes: 'Changed on the phone.' },
      { ifMatch: versionOf(heat) },
    )
    await itemOf('Heat').locator('button:has-text("Delete")').click()
    const notice = itemOf('Heat').locator('.notice')
    await expect.poll(() => notice.textContent()).toContain('nothing was deleted')
    expect(await itemOf('Heat').locator('.notes').textContent()).toBe('Changed on the phone.')
    expect(await stored()).toHaveLength(1)
    await itemOf('Heat').locator('button:has-text("Delete")').click()
    await expect.poll(() => titlesOn(page)).toEqual([])
    expect(await stored()).toEqual([])
    expect(await page.locator('#empty').isVisible()).toBe(true)
    expect(requests.urls.filter((url) => new URL(url).origin !== site.origin)).toEqual([])
    expect(requests.refused).toEqual([])
  })

  // Requests for one movie (`/movies/{id}`) of `method` get no answer, as when the network fails.
  const unreachable = (method: string) =>
    page.route(
      (url) => /^\/movies\/[^/]+$/.test(url.pathname),
      (route) =>
        settleRoute(
          route.request().method() === method
            ? route.abort('internetdisconnected')
            : route.fallback(),
        ),
    )

  it('says the server could not be reached when the network fails, and deletes nothing', async () => {
    await elsewhere.addMovie({
      title: 'Alien',
      screenedDate: '2024-06-01T21:00:00.000',
      releaseYear: 1979,
      imdbLink: 'https://www.imdb.com/title/tt0078748/',
    })
    await page.reload()
    await expect.poll(() => titlesOn(page)).toEqual(['Alien (1979)'])
    const [alien] = (await stored()) as [Movie]
    // What the page says, in its status line and in the notice of a movie being edited.
    const said = async () =>
      (await page.locator('#status, li.movie .notice').allTextContents()).join(' ')
    const outcome = /Could not reach the server|deleted this movie elsewhere/

    // The save meets a 412, and reading the version now stored fails: not a deletion.
    await itemOf('Alien').locator('button:has-text("Edit")').click()
    await elsewhere.updateMovie(
      alien.id,
      { notes: 'From the phone.' },
      { ifMatch: versionOf(alien) },
    )
    await unreachable('GET')
    await page.fill('[id$="-notes"]:not(#add-notes)', 'From the laptop.')
    await page.click('button:has-text("Save")')
    await expect.poll(said).toMatch(outcome)
    expect(await said()).not.toContain('deleted this movie elsewhere')
    expect(await itemOf('Alien').locator('.notice').textContent()).toMatch(
      /changed this movie elsewhere .*nothing was saved\. Could not reach the server/,
    )
    expect(await seriousViolations(page)).toEqual([])
    await page.unrouteAll({ behavior: 'wait' })
    await itemOf('Alien').locator('button:has-text("Cancel")').click()

    // The delete itself gets no answer: the movie stays, in the page and in the log.
    await unreachable('DELETE')
    await itemOf('Alien').locator('button:has-text("Delete")').click()
    await expect.poll(said).toMatch(/Could not reach the server|Deleted “Alien”/)
    expect(await said()).toContain('Could not reach the server')
    expect(await titlesOn(page)).toEqual(['Alien (1979)'])
    expect(await stored()).toHaveLength(1)
    await page.unrouteAll({ behavior: 'wait' })
  })

  it('says a movie deleted elsewhere is gone when the server answers 404', async () => {
    const [alien] = (await stored()) as [Movie]
    await itemOf('Alien').locator('button:has-text("Edit")').click()
    expect(await elsewhere.deleteMovie(alien.id)).toBe(true)
    await page.fill('[id$="-notes"]:not(#add-notes)', 'Too late.')
    await page.click('button:has-text("Save")')
    await expect
      .poll(() => page.locator('#status').textContent())
      .toBe('Someone deleted this movie elsewhere; it is gone from the diary.')
    expect(await titlesOn(page)).toEqual([])
    expect(await stored()).toEqual([])
  })
})
