import { readFileSync } from 'node:fs'
import { join } from 'node:path'
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
import { loadFixtureCatalog } from '../_catalog'
import { FIXTURES, letterboxdZip } from '../_import-files'
import { describeUnless } from '../_services'
import { tempFolders } from '../_temp'

// Issue 58: the page's import panel in a real Chromium. Its script is fetched when the panel is
// opened; a Letterboxd zip picked with the keyboard is imported through POST /movies/import,
// matched through the server's catalog; the report, the unmatched rows downloaded; a Netflix
// history dropped on the panel asks for its day form. axe in each state.
const shot = screenshots()
const folder = tempFolders()('movie-log-page-import-')

describeUnless(NO_BROWSER, 'Chromium', 'the import panel', () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let browser: Browser

  beforeAll(async () => {
    const catalog = join(folder, 'catalog.sqlite')
    await loadFixtureCatalog(catalog)
    site = await startSite({ MOVIE_LOG_CATALOG: catalog, MOVIE_LOG_TIME_ZONE: 'Europe/Paris' })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  async function open(): Promise<{ page: Page; requests: ReturnType<typeof watchRequests> }> {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    })
    const page = await context.newPage()
    page.setDefaultTimeout(20_000) // only stops a hung step
    const requests = watchRequests(page)
    await page.goto(`${site.origin}/`)
    await page.locator('#movies').waitFor({ state: 'attached' })
    return { page, requests }
  }

  it('imports a Letterboxd zip picked with the keyboard: the report, the unmatched rows to download', async () => {
    const { page, requests } = await open()
    const panelScript = () => requests.urls.filter((url) => /\/import-panel-\w+\.js$/.test(url))
    expect(panelScript()).toEqual([])
    // The panel opens from the keyboard, and only then is its script fetched.
    await page.locator('#import summary').focus()
    await page.keyboard.press('Enter')
    const file = page.locator('#import-file')
    await file.waitFor()
    expect(panelScript()).toHaveLength(1)
    expect(await page.getByLabel('File to import').count()).toBe(1)
    await file.setInputFiles(letterboxdZip(folder))
    await file.focus()
    await page.keyboard.press('Tab')
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Import')
    await page.keyboard.press('Enter')
    const status = page.locator('#import [role="status"]')
    await expect
      .poll(() => status.textContent())
      .toBe('letterboxd-cinephile-2024-06-01-10-00-utc.zip imported.')
    const counts = await page
      .locator('#import .counts')
      .evaluate((list) =>
        Object.fromEntries(
          [...list.querySelectorAll('dt')].map((term) => [
            term.textContent,
            term.nextElementSibling?.textContent,
          ]),
        ),
      )
    expect(counts).toEqual({
      Added: '1',
      'Already in your diary': '0',
      'Matched to IMDb by title': '1',
      'Not matched': '2',
      Refused: '0',
      'Episodes and trailers passed over': '0',
    })
    // The diary shows what came in.
    await expect.poll(() => titlesOn(page)).toEqual(['Amélie (2001)'])
    expect(await page.locator('#import-progress').isHidden()).toBe(true)
    await page.locator('#import').scrollIntoViewIfNeeded()
    await page.screenshot({ path: shot('import-1280.png'), fullPage: false })
    expect(await seriousViolations(page)).toEqual([])

    const link = page.getByRole('link', { name: 'Download the 2 unmatched rows' })
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
    expect(download.suggestedFilename()).toBe(
      'letterboxd-cinephile-2024-06-01-10-00-utc.unmatched.csv',
    )
    const saved = join(folder, 'unmatched.csv')
    await download.saveAs(saved)
    const csv = readFileSync(saved, 'utf8')
    expect(csv.split('\r\n')[0]).toBe(
      'id,title,screenedDate,releaseYear,imdbLink,notes,rating,tags,candidates',
    )
    expect(csv).toContain(',Heat,2024-05-01T00:00:00.000,1995,,')
    expect(requests.refused).toEqual([])

    // Again: nothing added twice.
    await page.keyboard.press('Shift+Tab')
    await page.locator('#import button[type="submit"]').press('Enter')
    await expect.poll(() => page.locator('#import .counts dd').first().textContent()).toBe('0')
    expect(await page.locator('#import .counts dd').nth(1).textContent()).toBe('1')
    expect(await titlesOn(page)).toEqual(['Amélie (2001)'])
  })

  it('asks for the day form of a Netflix history dropped on it, then imports it', async () => {
    const { page } = await open()
    await page.locator('#import summary').click()
    await page.locator('#import-file').waitFor()
    const text = readFileSync(join(FIXTURES, 'netflix-ambiguous.csv'), 'utf8')
    const dropped = await page.evaluateHandle((csv) => {
      const transfer = new DataTransfer()
      transfer.items.add(new File([csv], 'NetflixViewingHistory.csv', { type: 'text/csv' }))
      return transfer
    }, text)
    await page.locator('#import').dispatchEvent('drop', { dataTransfer: dropped })
    const days = page.getByLabel('Day form of the Netflix history')
    await days.waitFor()
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('import-days')
    expect(await days.getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('#import-days-error').textContent()).toMatch(
      /read as MM\/DD\/YY or DD\/MM\/YY/,
    )
    expect(await seriousViolations(page)).toEqual([])
    await days.fill('DD/MM/YY')
    await days.press('Enter')
    await expect
      .poll(() => page.locator('#import [role="status"]').textContent())
      .toBe('NetflixViewingHistory.csv imported.')
    expect(await page.locator('#import .counts dd').nth(3).textContent()).toBe('2')
    expect(await days.isHidden()).toBe(true)
  })
})
