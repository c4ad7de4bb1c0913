import { createMovieLogClient } from 'movie-log/client'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium, NO_BROWSER, seriousViolations, startSite, titlesOn } from '../_browser'
import { aMovie } from '../_movies'
import { describeUnless } from '../_services'

// The diary page with the keyboard alone, in a real Chromium: add, edit, delete, "More" and the
// year filter, each reached by Tab and used with the keys a person presses; axe-core in each
// state. Also the two defects of issue 30 a person meets there: buttons all named "Edit" or
// "Delete", and a year filter whose `min` blocked years before 1870.
const SEEDS = Array.from({ length: 21 }, (_, n) =>
  aMovie({
    title: `Film ${String(n + 1).padStart(2, '0')}`,
    screenedDate: `2024-03-${String(n + 1).padStart(2, '0')}T20:00:00.000`,
    releaseYear: 1950 + n,
  }),
)

describeUnless(NO_BROWSER, 'Chromium', 'the diary page with the keyboard alone', () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let browser: Browser
  let page: Page
  const stored = async () =>
    (await createMovieLogClient(site.server.url).listMovies()).movies.map((movie) => movie.title)

  beforeAll(async () => {
    site = await startSite()
    const log = createMovieLogClient(site.server.url)
    for (const movie of SEEDS) await log.addMovie(movie)
    browser = await launchChromium()
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
    page.setDefaultTimeout(20_000) // only stops a hung step
    // Delete asks with the browser's confirm(): Enter accepts it.
    page.on('dialog', (dialog) => dialog.accept())
    await page.goto(`${site.origin}/`)
    await page.locator('#movies li.movie').first().waitFor()
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  /** What has the keyboard: an id, or else the element's accessible text. */
  const focused = () =>
    page.evaluate(() => {
      const at = document.activeElement as HTMLElement | null
      return at?.id || at?.textContent || ''
    })
  /** Presses Tab until `wanted` has the keyboard (at most 80 presses). */
  async function tabTo(wanted: string | RegExp): Promise<void> {
    for (let presses = 0; presses < 80; presses++) {
      const now = await focused()
      if (typeof wanted === 'string' ? now === wanted : wanted.test(now)) return
      await page.keyboard.press('Tab')
    }
    throw new Error(`Tab never reached ${wanted}`)
  }

  it('names each Edit and Delete button after its movie', async () => {
    const named = (name: string) => page.getByRole('button', { name, exact: true })
    expect(await named('Edit “Film 21” (1970)').count()).toBe(1)
    expect(await named('Delete “Film 21” (1970)').count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0)
  })

  it('adds a movie', async () => {
    await tabTo('add-title')
    await page.keyboard.type('Keyboard Movie')
    await page.keyboard.press('Tab')
    // The date and time, a segment at a time: each arrow up sets one (this year, 1 January, 1 am).
    for (let segment = 0; segment < 7; segment++) {
      await page.keyboard.press('ArrowUp')
      await page.keyboard.press('ArrowRight')
    }
    await tabTo('add-releaseYear')
    await page.keyboard.type('2001')
    await page.keyboard.press('Tab')
    await page.keyboard.type('https://www.imdb.com/title/tt0133093/')
    await tabTo('Add to the diary')
    await page.keyboard.press('Enter')
    await expect.poll(stored).toContain('Keyboard Movie')
    await expect.poll(() => titlesOn(page)).toContain('Keyboard Movie (2001)')
    expect(await seriousViolations(page)).toEqual([])
  })

  it('edits it', async () => {
    await tabTo(/^Edit “Keyboard Movie”/)
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('title')
    expect(await seriousViolations(page)).toEqual([])
    await tabTo(/-notes$/)
    await page.keyboard.type('Typed, not clicked.')
    await tabTo('Save')
    await page.keyboard.press('Enter')
    await expect
      .poll(() =>
        page.locator('li.movie', { hasText: 'Keyboard Movie' }).locator('.notes').textContent(),
      )
      .toBe('Typed, not clicked.')
    // The keyboard is back on the movie's first button.
    expect(await focused()).toMatch(/^Edit “Keyboard Movie”/)
  })

  it('deletes it', async () => {
    await page.keyboard.press('Tab')
    expect(await focused()).toMatch(/^Delete “Keyboard Movie”/)
    await page.keyboard.press('Enter')
    await expect.poll(stored).not.toContain('Keyboard Movie')
    await expect.poll(() => titlesOn(page)).not.toContain('Keyboard Movie (2001)')
    expect(await seriousViolations(page)).toEqual([])
  })

  it('loads more', async () => {
    // 20 were shown with the added one; its delete left 19, the next page brings the last two.
    expect(await titlesOn(page)).toHaveLength(19)
    await tabTo('more')
    await page.keyboard.press('Enter')
    await expect.poll(() => titlesOn(page)).toHaveLength(21)
    expect(await focused()).toMatch(/^Edit “Film 02”/)
    expect(await seriousViolations(page)).toEqual([])
  })

  it('filters by any year a person types, 1850 too', async () => {
    await page.keyboard.press('Shift+Tab')
    await tabTo('year')
    await page.keyboard.type('1850')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.locator('#empty').textContent())
      .toContain('No movie screened in 1850')
    await page.keyboard.press('Control+A')
    await page.keyboard.type('12')
    await page.keyboard.press('Enter')
    expect(await page.locator('#status').textContent()).toBe('A year has four digits, 2024 say.')
    expect(await page.getAttribute('#year', 'aria-invalid')).toBe('true')
    expect(await seriousViolations(page)).toEqual([])
  })
})
