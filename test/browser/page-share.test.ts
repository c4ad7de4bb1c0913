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

// A diary shared by its link (issue 60) in a real Chromium: the owner's Share control makes the
// link, and the link's page is the diary read-only, without the notes unless shared; the docs'
// share-*.png.
const shot = screenshots()

const SEEDS = [
  {
    title: 'Heat',
    screenedDate: '2024-05-01T20:30:00.000',
    notes: 'A private note on Heat.',
    rating: 9,
  },
  {
    title: 'Alien',
    screenedDate: '2024-06-12T21:00:00.000',
    notes: 'Another private note.',
    tags: ['horror'],
  },
  { title: 'Paris, Texas', screenedDate: '2024-07-04T18:00:00.000', notes: '' },
].map(({ title, screenedDate, notes, ...more }, n) => ({
  ...aMovie({
    title,
    screenedDate,
    notes,
    releaseYear: 1979 + n,
    imdbLink: `https://www.imdb.com/title/tt00000${n}1/`,
  }),
  ...more,
}))

describeUnless(NO_BROWSER, 'Chromium', 'a diary shared by its link', () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let browser: Browser

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

  async function open(path: string, width = 1280): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 } })
    const page = await context.newPage()
    page.setDefaultTimeout(20_000) // only stops a hung step
    await page.goto(`${site.origin}${path}`)
    return page
  }

  it('makes the link from the Share control, and its page is the diary read-only, notes hidden', async () => {
    const owner = await open('/')
    await owner.locator('#movies li.movie').first().waitFor()
    await owner.click('#share summary')
    await owner.getByRole('button', { name: 'Share a link' }).click()
    const link = owner.locator('#share-link')
    await link.waitFor()
    const href = (await link.getAttribute('href')) as string
    expect(href).toMatch(new RegExp(`^${site.origin}/s/[A-Za-z0-9_-]{32}$`))
    await owner.screenshot({ path: shot('share-control-1280.png') })
    expect(await seriousViolations(owner)).toEqual([])

    for (const width of [1280, 375]) {
      const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage()
      page.setDefaultTimeout(20_000)
      const seen = watchRequests(page)
      await page.goto(href)
      await page.locator('#movies li.movie').first().waitFor()
      expect(await titlesOn(page)).toEqual(['Paris, Texas (1981)', 'Alien (1980)', 'Heat (1979)'])
      // Read-only: no form, no field, no button but More, no token asked; no notes shown.
      expect(await page.locator('form, input, select, textarea, dialog').count()).toBe(0)
      expect(await page.locator('button:visible').count()).toBe(0)
      expect(await page.locator('.notes').count()).toBe(0)
      expect(await page.content()).not.toContain('private note')
      // Its stars and tags as the diary shows them; robots told to keep out.
      expect(await page.locator('#movies .stars, #movies .tags').count()).toBeGreaterThan(0)
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex')
      expect(await page.locator('link[rel="alternate"][type="application/rss+xml"]').count()).toBe(
        1,
      )
      // Only the link's own listing is read: never the owner's API, nothing from another host.
      const path = new URL(href).pathname
      const calls = seen.urls.filter((url) => !url.includes('/assets/'))
      expect(calls.map((url) => new URL(url).pathname)).toEqual([path, `${path}/movies`])
      expect(seen.refused).toEqual([])
      expect(await seriousViolations(page)).toEqual([])
      await page.screenshot({ path: shot(`share-${width}.png`), fullPage: true })
    }

    // A new link: the page of the old one is gone.
    await owner.getByRole('button', { name: /New link/ }).click()
    await expect.poll(() => owner.locator('#share-link').getAttribute('href')).not.toBe(href)
    const old = await open(new URL(href).pathname)
    expect(await old.locator('#movies').count()).toBe(0)
    expect(await old.content()).toContain('Not found.')
  })

  it('shows the notes when the owner shares them', async () => {
    const owner = await open('/')
    await owner.click('#share summary')
    await owner.locator('#share-notes').check()
    await owner.getByRole('button', { name: /New link|Share a link/ }).click()
    await expect
      .poll(() => owner.locator('#share').textContent())
      .toContain('Anyone with this link')
    const href = (await owner.locator('#share-link').getAttribute('href')) as string
    const page = await open(new URL(href).pathname)
    await page.locator('#movies li.movie').first().waitFor()
    expect(await page.locator('.notes').allTextContents()).toEqual([
      'Another private note.',
      'A private note on Heat.',
    ])
  })
})
