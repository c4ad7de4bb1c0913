import { createMovieLogClient } from 'movie-log/client'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  launchChromium,
  NO_BROWSER,
  screenshots,
  seriousViolations,
  startSite,
  titlesOn,
  watchRequests,
} from '../_browser'
import { aMovie } from '../_movies'
import { describeUnless } from '../_services'

// Browsing the diary in a real Chromium: pages of 20 latest screened first, "More", the year
// filter, the keyboard, both widths; the docs' screenshots are taken here.
const shot = screenshots()

// 25 movies screened over 2023 and 2024, added in an order that is not the screening order.
const SEEDS = Array.from({ length: 25 }, (_, n) => {
  const month = String(((n * 7) % 12) + 1).padStart(2, '0')
  const year = n % 3 === 0 ? 2023 : 2024
  return aMovie({
    title: `Film ${String(n + 1).padStart(2, '0')}`,
    screenedDate: `${year}-${month}-${String((n % 27) + 1).padStart(2, '0')}T20:00:00.000`,
    releaseYear: 1950 + n,
    notes: n % 4 === 0 ? 'Seen at the cinema club.' : '',
  })
})
const byScreening = [...SEEDS].sort((a, b) => b.screenedDate.localeCompare(a.screenedDate))
const shown = (movies: typeof SEEDS) =>
  movies.map((movie) => `${movie.title} (${movie.releaseYear})`)
const latestFirst = shown(byScreening)

describeUnless(NO_BROWSER, 'Chromium', 'browsing the diary page', () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let browser: Browser
  const pages: Page[] = []

  beforeAll(async () => {
    site = await startSite()
    const log = createMovieLogClient(site.server.url)
    for (const movie of SEEDS) await log.addMovie(movie)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  async function open(width: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 } })
    const page = await context.newPage()
    page.setDefaultTimeout(20_000) // only stops a hung step
    pages.push(page)
    await page.goto(`${site.origin}/`)
    await page.locator('#movies li.movie').first().waitFor()
    return page
  }

  it('shows 20 movies latest screened first, then the rest on "More"', async () => {
    const page = await open(1280)
    expect(await titlesOn(page)).toEqual(latestFirst.slice(0, 20))
    await page.screenshot({ path: shot('diary-1280.png'), fullPage: false })
    expect(await seriousViolations(page)).toEqual([])
    await page.click('#more')
    await expect.poll(() => titlesOn(page)).toEqual(latestFirst)
    expect(await page.locator('#more').isHidden()).toBe(true)
    // The keyboard continues at the first movie "More" brought.
    const focused = await page.evaluate(() => document.activeElement?.closest('li')?.dataset.id)
    expect(focused).toBe(await page.locator('li.movie').nth(20).getAttribute('data-id'))
  })

  it('filters by the year screened, and says when a year has none', async () => {
    const page = await open(1280)
    await page.fill('#year', '2023')
    await page.keyboard.press('Enter')
    const in2023 = shown(byScreening.filter((movie) => movie.screenedDate.startsWith('2023')))
    await expect.poll(() => titlesOn(page)).toEqual(in2023)
    expect(await seriousViolations(page)).toEqual([])
    await page.fill('#year', '1999')
    await page.click('button:has-text("Show")')
    await expect
      .poll(() => page.locator('#empty').textContent())
      .toContain('No movie screened in 1999')
    expect(await titlesOn(page)).toEqual([])
    await page.click('#all-years')
    await expect.poll(() => titlesOn(page)).toEqual(latestFirst.slice(0, 20))
  })

  it('reads at 375 pixels wide with nothing wider than the screen, and works with the keyboard', async () => {
    const page = await open(375)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    expect(await seriousViolations(page)).toEqual([])
    // The first Tab reaches the skip link, which takes the keyboard to the diary.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the diary')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q')
    await page.screenshot({ path: shot('diary-375.png') })
    // Edit opens with the keyboard and puts it in the form; Cancel gives the movie back.
    await page.locator('li.movie').first().locator('button:has-text("Edit")').focus()
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('title')
    await page.screenshot({ path: shot('diary-375-edit.png'), fullPage: false })
    expect(await seriousViolations(page)).toEqual([])
    await page.locator('li.movie').first().locator('button:has-text("Cancel")').press('Enter')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Edit “/)
  })

  it('loaded nothing from another host, and met no CSP refusal', async () => {
    const page = await browser.newPage()
    const seen = watchRequests(page)
    await page.goto(`${site.origin}/`)
    await page.locator('#movies li.movie').first().waitFor()
    expect(seen.urls.length).toBeGreaterThanOrEqual(4)
    expect(seen.urls.filter((url) => new URL(url).origin !== site.origin)).toEqual([])
    expect(seen.refused).toEqual([])
    await page.close()
  })
})
