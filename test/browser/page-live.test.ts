import { createMovieLogClient } from 'movie-log/client'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  launchChromium,
  NO_BROWSER,
  screenshots,
  seriousViolations,
  startSite,
  titlesOn,
} from '../_browser'
import { aMovie } from '../_movies'
import { describeUnless } from '../_services'

// Two windows on one real server, in a real Chromium: what one does, the other shows without a
// reload, within a second, in its place in the order shown (src/page/browser/live.ts). Each wait is
// for the DOM to read as expected, bounded by that second: no sleep anywhere.
const SECOND = 1000
const shot = screenshots()

// 22 movies screened on the first 22 days of 2023: a window shows 20 of them, then "More".
const SEEDS = Array.from({ length: 22 }, (_, n) =>
  aMovie({
    title: `Seed ${String(n + 1).padStart(2, '0')}`,
    screenedDate: `2023-01-${String(n + 1).padStart(2, '0')}T20:00:00.000`,
    releaseYear: 1950 + n,
  }),
)
const seedTitle = (n: number) => `Seed ${String(n).padStart(2, '0')} (${1949 + n})`

describeUnless(NO_BROWSER, 'Chromium', 'the diary page in two windows', () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let browser: Browser
  let a: Page
  let b: Page
  let contextB: BrowserContext
  let log: ReturnType<typeof createMovieLogClient>

  beforeAll(async () => {
    site = await startSite()
    log = createMovieLogClient(site.server.url)
    for (const movie of SEEDS) await log.addMovie(movie)
    browser = await launchChromium()
    const open = async (width: number) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } })
      const page = await context.newPage()
      page.setDefaultTimeout(20_000) // only stops a hung step
      page.on('dialog', (dialog) => dialog.accept())
      await page.goto(`${site.origin}/`)
      await page.locator('#movies li.movie').first().waitFor()
      return { page, context }
    }
    a = (await open(1280)).page
    ;({ page: b, context: contextB } = await open(1280))
  })
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup()
    await browser?.close()
    await site?.close()
  })

  /** Polls `page`'s titles, a second at most, until `test` holds of them. */
  const titlesBecome = (page: Page, test: (titles: string[]) => boolean) =>
    expect
      .poll(async () => test(await titlesOn(page)), { timeout: SECOND, interval: 20 })
      .toBe(true)
  const itemOn = (page: Page, title: string) => page.locator('li.movie', { hasText: title })
  const answered = (page: Page, method: string) =>
    page.waitForResponse((response) => response.request().method() === method && response.ok())

  it('shows an add made in one window in the other within a second, in its place', async () => {
    expect(await titlesOn(b)).toHaveLength(20)
    await a.fill('#add-title', 'Zodiac')
    await a.fill('#add-screenedDate', '2023-01-15T21:00')
    await a.fill('#add-releaseYear', '2007')
    await a.fill('#add-imdbLink', 'https://www.imdb.com/title/tt0443706/')
    const added = answered(a, 'POST')
    await a.click('button:has-text("Add to the diary")')
    await added
    await itemOn(b, 'Zodiac').waitFor({ timeout: SECOND })
    const titles = await titlesOn(b)
    expect(titles.slice(6, 9)).toEqual([seedTitle(16), 'Zodiac (2007)', seedTitle(15)])
    expect(titles).toHaveLength(21)
    expect(await seriousViolations(b)).toEqual([])
  })

  it('leaves out an add past the pages loaded until "More" brings it, once', async () => {
    await log.addMovie(aMovie({ title: 'Oldest', screenedDate: '2022-12-01T20:00:00.000' }))
    await log.addMovie(aMovie({ title: 'Newest', screenedDate: '2024-01-01T20:00:00.000' }))
    // The feed is in order: once the second add shows, the first was read, and left out.
    await titlesBecome(b, (titles) => titles[0] === 'Newest (1995)')
    expect((await titlesOn(b)).filter((title) => title.startsWith('Oldest'))).toEqual([])
    await b.click('#more')
    await expect.poll(() => titlesOn(b)).toHaveLength(25)
    const titles = await titlesOn(b)
    expect(titles.at(-1)).toBe('Oldest (1995)')
    expect(new Set(titles).size).toBe(25)
  })

  it('shows an edit made in one window in the other, moved to its place, and a delete', async () => {
    await itemOn(a, 'Seed 10').locator('button:has-text("Edit")').click()
    await a.fill('[id$="-notes"]:not(#add-notes)', 'Seen again.')
    await a.fill('[id$="-screenedDate"]:not(#add-screenedDate)', '2024-02-01T20:00')
    const saved = answered(a, 'PATCH')
    await a.click('button:has-text("Save")')
    await saved
    await titlesBecome(b, (titles) => titles[0] === seedTitle(10))
    // The window that saved it moves it too, the keyboard still on its Edit button.
    await titlesBecome(a, (titles) => titles[0] === seedTitle(10))
    expect(await a.evaluate(() => document.activeElement?.textContent)).toMatch(/^Edit “Seed 10”/)
    expect(await itemOn(b, 'Seed 10').locator('.notes').textContent()).toBe('Seen again.')
    expect((await titlesOn(b)).filter((title) => title.startsWith('Seed 10'))).toHaveLength(1)

    const deleted = answered(a, 'DELETE')
    await itemOn(a, 'Seed 09').locator('button:has-text("Delete")').click()
    await deleted
    await titlesBecome(b, (titles) => !titles.includes(seedTitle(9)))
    expect(await titlesOn(b)).toHaveLength(24)
    expect(await seriousViolations(b)).toEqual([])
  })

  it('tells a window editing a movie that the other changed it, and keeps its form', async () => {
    await itemOn(b, 'Seed 07').locator('button:has-text("Edit")').click()
    const notesB = b.locator('[id$="-notes"]:not(#add-notes)')
    await notesB.fill('Typed in window B.')
    await itemOn(a, 'Seed 07').locator('button:has-text("Edit")').click()
    await a.fill('[id$="-title"]:not(#add-title)', 'Seed 07 restored')
    const saved = answered(a, 'PATCH')
    await a.click('button:has-text("Save")')
    await saved
    const notice = b.locator('li.movie .notice')
    await notice.filter({ hasText: 'changed this movie elsewhere' }).waitFor({ timeout: SECOND })
    expect(await notice.textContent()).toContain('Seed 07 restored')
    // The form is as the person left it: their notes, and the title they saw.
    expect(await notesB.inputValue()).toBe('Typed in window B.')
    expect(await b.inputValue('[id$="-title"]:not(#add-title)')).toBe('Seed 07')
    expect(await seriousViolations(b)).toEqual([])
    await b.screenshot({ path: shot('diary-1280-changed-elsewhere.png') })

    const deleted = answered(a, 'DELETE')
    await itemOn(a, 'Seed 07 restored').locator('button:has-text("Delete")').click()
    await deleted
    await notice.filter({ hasText: 'deleted this movie elsewhere' }).waitFor({ timeout: SECOND })
    expect(await notesB.inputValue()).toBe('Typed in window B.')
    expect(await seriousViolations(b)).toEqual([])
    await b.locator('li.movie button:has-text("Cancel")').click()
    expect((await titlesOn(b)).filter((title) => title.startsWith('Seed 07'))).toEqual([])
  })

  it('follows the year filter, and catches up after being offline', async () => {
    await b.fill('#year', '2022')
    await b.keyboard.press('Enter')
    await expect.poll(() => titlesOn(b)).toEqual(['Oldest (1995)'])
    await log.addMovie(aMovie({ title: 'In 2024', screenedDate: '2024-03-01T20:00:00.000' }))
    await log.addMovie(aMovie({ title: 'In 2022', screenedDate: '2022-06-01T20:00:00.000' }))
    await titlesBecome(b, (titles) => titles.join() === 'Oldest (1995),In 2022 (1995)')
    // Offline the feed is left; back online it resumes after the last change it read.
    await contextB.setOffline(true)
    await log.addMovie(aMovie({ title: 'While away', screenedDate: '2022-07-01T20:00:00.000' }))
    await contextB.setOffline(false)
    await titlesBecome(b, (titles) => titles[1] === 'While away (1995)')
    expect(await titlesOn(b)).toEqual(['Oldest (1995)', 'While away (1995)', 'In 2022 (1995)'])
  })

  // Issue 55: the page swallowed a feed that failed, and went on as if it were live.
  it('says in its status that changes are not shown live, on a server with no feed', async () => {
    const context = await browser.newContext()
    cleanups.push(() => context.close())
    const page = await context.newPage()
    page.setDefaultTimeout(20_000) // only stops a hung step
    // The feed's request answered as a server without one answers it: the JSON list.
    await page.route('**/*', (route) =>
      /text\/event-stream/.test(route.request().headers().accept ?? '')
        ? route.fulfill({ status: 200, contentType: 'application/json', body: '[]' })
        : route.continue(),
    )
    await page.goto(`${site.origin}/`)
    await page.locator('#movies li.movie').first().waitFor()
    await expect
      .poll(() => page.locator('#status').textContent())
      .toBe(
        'Changes made elsewhere are not shown as they happen. This server sends no live changes: reload the page to see them.',
      )
    expect(await seriousViolations(page)).toEqual([])
  })
})
