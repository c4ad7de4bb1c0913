import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium, NO_BROWSER, screenshots, seriousViolations, startSite } from '../_browser'
import { loadFixtureCatalog } from '../_catalog'
import { describeUnless } from '../_services'
import { tempFolders } from '../_temp'

// Issue 58: the add form's title suggests IMDb entries from the server's catalog, as an ARIA 1.2
// combobox, in a real Chromium; choosing one fills the year and the IMDb link.
const shot = screenshots()
const folder = tempFolders()('movie-log-page-suggest-')

describeUnless(NO_BROWSER, 'Chromium', 'title suggestions in the add form', () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let browser: Browser

  beforeAll(async () => {
    const catalog = join(folder, 'catalog.sqlite')
    await loadFixtureCatalog(catalog)
    site = await startSite({ MOVIE_LOG_CATALOG: catalog })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  async function open(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    page.setDefaultTimeout(20_000) // only stops a hung step
    await page.goto(`${site.origin}/`)
    await page.locator('#add-title[role="combobox"]').waitFor()
    return page
  }

  it('suggests as one types, and the keyboard chooses: the year and the link filled in', async () => {
    const page = await open()
    const title = page.locator('#add-title')
    await title.pressSequentially('amel')
    const options = page.locator('#add-title-suggestions [role="option"]')
    await expect
      .poll(() => options.allTextContents())
      .toEqual(["Amélie (2001) · Le fabuleux destin d'Amélie Poulain"])
    expect(await title.getAttribute('aria-expanded')).toBe('true')
    expect(await title.getAttribute('aria-controls')).toBe('add-title-suggestions')
    expect(await page.locator('#add [role="status"]').textContent()).toBe(
      '1 IMDb title: down arrow to choose.',
    )
    await title.press('ArrowDown')
    expect(await title.getAttribute('aria-activedescendant')).toBe('add-title-suggestions-0')
    expect(await options.first().getAttribute('aria-selected')).toBe('true')
    await page.screenshot({ path: shot('suggest-1280.png'), fullPage: false })
    expect(await seriousViolations(page)).toEqual([])
    await title.press('Enter')
    expect(await title.inputValue()).toBe('Amélie')
    expect(await page.locator('#add-releaseYear').inputValue()).toBe('2001')
    expect(await page.locator('#add-imdbLink').inputValue()).toBe(
      'https://www.imdb.com/title/tt0211915/',
    )
    expect(await title.getAttribute('aria-expanded')).toBe('false')
    expect(await page.locator('#add-title-suggestions').isHidden()).toBe(true)
    // Enter chose: the form was not sent.
    expect(await page.locator('#add .summary').textContent()).toBe('')
  })

  it('moves through several, Escape closes, and a click chooses', async () => {
    const page = await open()
    const title = page.locator('#add-title')
    await title.pressSequentially('dune')
    const options = page.locator('#add-title-suggestions [role="option"]')
    await expect.poll(() => options.count()).toBe(3)
    await title.press('ArrowUp')
    expect(await title.getAttribute('aria-activedescendant')).toBe('add-title-suggestions-2')
    await title.press('Escape')
    expect(await page.locator('#add-title-suggestions').isHidden()).toBe(true)
    expect(await title.getAttribute('aria-activedescendant')).toBeNull()
    await title.press('s') // "dunes": nothing
    await expect
      .poll(() => page.locator('#add [role="status"]').textContent())
      .toBe('No IMDb title found.')
    await title.press('Backspace')
    await expect.poll(() => options.count()).toBe(3)
    await options.nth(1).click()
    expect(await page.locator('#add-imdbLink').inputValue()).toBe(
      'https://www.imdb.com/title/tt1160419/',
    )
    expect(await title.inputValue()).toBe('Dune: Part One')
    expect(await page.locator('#add-releaseYear').inputValue()).toBe('2021')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('add-title')
  })
})
