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

// The search box and the year in review in a real Chromium: search as you type, the words in
// the address, the year's charts and their tables against a seeded diary, axe in both views,
// light and dark; the docs' review-*.png are taken here.
const shot = screenshots()

// The review opens on the browser's current year: the diary is seeded in it and the one before.
const year = new Date().getFullYear()
const imdb = (id: string) => `https://www.imdb.com/title/${id}/`
const SEEDS = [
  ['Cinéma Paradiso', 1988, `${year}-01-05T21:30:00.000`, 'tt0095765'],
  ['Heat', 1995, `${year}-03-14T20:00:00.000`, 'tt0113277'],
  ['Heat', 1995, `${year}-03-21T23:10:00.000`, 'tt0113277'],
  ['Heat', 1995, `${year}-07-04T14:00:00.000`, 'tt0113277'],
  ['Paris, Texas', 1984, `${year}-07-04T18:00:00.000`, 'tt0087884'],
  ['千と千尋の神隠し', 2001, `${year}-12-25T10:00:00.000`, 'tt0245429'],
  ['Cinema Verite', 2011, `${year}-12-26T21:00:00.000`, 'tt1579232'],
  ['Paranoid Park', 2007, `${year - 1}-05-01T20:00:00.000`, 'tt0822389'],
  ['Heat', 1995, `${year - 1}-06-02T20:00:00.000`, 'tt0113277'],
].map(([title, releaseYear, screenedDate, id]) =>
  aMovie({ title, releaseYear, screenedDate, imdbLink: imdb(String(id)), notes: '' }),
)

// The counts the review must show, worked out here from the seeds (weekday of the date itself).
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August'].concat([
  'September',
  'October',
  'November',
  'December',
])
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
function expected(inYear: number) {
  const seen = SEEDS.filter((movie) => movie.screenedDate.startsWith(String(inYear)))
  const count = (of: (date: string) => number, size: number) => {
    const counts = Array<number>(size).fill(0)
    for (const movie of seen) counts[of(movie.screenedDate)]! += 1
    return counts
  }
  const weekday = (date: string) => (new Date(`${date.slice(0, 10)}T00:00:00Z`).getUTCDay() + 6) % 7
  const two = (n: number) => String(n).padStart(2, '0')
  const decades = new Map<number, number>()
  for (const movie of seen) {
    const decade = Math.floor(movie.releaseYear / 10) * 10
    decades.set(decade, (decades.get(decade) ?? 0) + 1)
  }
  return {
    total: seen.length,
    tables: [
      count((date) => Number(date.slice(5, 7)) - 1, 12).map((n, m) => `${MONTHS[m]} ${n}`),
      count(weekday, 7).map((n, d) => `${WEEKDAYS[d]} ${n}`),
      count((date) => Number(date.slice(11, 13)), 24).map(
        (n, h) => `${two(h)}:00 to ${two(h)}:59 ${n}`,
      ),
      [...decades].sort(([a], [b]) => a - b).map(([decade, n]) => `${decade}s ${n}`),
    ],
  }
}

describeUnless(NO_BROWSER, 'Chromium', 'the search box and the year in review', () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let browser: Browser
  const log = () => createMovieLogClient(site.server.url)

  beforeAll(async () => {
    site = await startSite()
    for (const movie of SEEDS) await log().addMovie(movie)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  async function open(path: string, width = 1280, colorScheme: 'light' | 'dark' = 'light') {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme })
    const page = await context.newPage()
    page.setDefaultTimeout(20_000) // only stops a hung step
    await page.goto(`${site.origin}${path}`)
    return page
  }
  const search = (page: Page) => page.evaluate(() => location.search)
  // Each chart's table, one "label count" line a row.
  const tables = (page: Page) =>
    page
      .locator('#review table')
      .evaluateAll((all) =>
        all.map((table) =>
          [...table.querySelectorAll('tbody tr')].map((row) =>
            [...row.children].map((cell) => cell.textContent).join(' '),
          ),
        ),
      )

  it('searches as you type, keeps the words in the address, and combines with the year', async () => {
    const page = await open('/')
    await page.locator('#movies li.movie').first().waitFor()
    await page.locator('#q').pressSequentially('cinema para')
    await expect.poll(() => titlesOn(page)).toEqual(['Cinéma Paradiso (1988)'])
    expect(await page.locator('#status').textContent()).toBe('1 movie matching “cinema para”.')
    expect(await search(page)).toBe('?q=cinema+para')
    expect(await seriousViolations(page)).toEqual([])

    // A reload (a link shared, a bookmark) opens on the same search.
    await page.reload()
    await expect.poll(() => titlesOn(page)).toEqual(['Cinéma Paradiso (1988)'])
    expect(await page.locator('#q').inputValue()).toBe('cinema para')

    // With the year filter: "heat" in the year before finds its one screening.
    await page.fill('#q', 'heat')
    await page.fill('#year', String(year - 1))
    await page.keyboard.press('Enter')
    await expect.poll(() => titlesOn(page)).toEqual(['Heat (1995)'])
    expect(await page.locator('#status').textContent()).toBe(
      `1 movie screened in ${year - 1} matching “heat”.`,
    )
    await page.fill('#year', '')
    await page.locator('#q').press('Enter')
    await expect.poll(() => titlesOn(page)).toEqual(Array(4).fill('Heat (1995)'))

    // Adds made elsewhere while searching: the one that matches is shown, the other is not.
    const when = `${year - 2}-01-01T20:00:00.000`
    const alien = await log().addMovie(
      aMovie({ title: 'Alien', releaseYear: 1979, screenedDate: when }),
    )
    const heat = await log().addMovie(aMovie({ screenedDate: when }))
    await expect.poll(() => titlesOn(page)).toEqual(Array(5).fill('Heat (1995)'))
    for (const movie of [alien, heat]) await log().deleteMovie(movie.id)
    await expect.poll(() => titlesOn(page)).toEqual(Array(4).fill('Heat (1995)'))

    // Escape clears the search; back brings it again, forward clears it again.
    await page.locator('#q').press('Escape')
    await expect.poll(() => titlesOn(page)).toHaveLength(SEEDS.length)
    expect(await search(page)).toBe('')
    await page.goBack()
    await expect.poll(() => titlesOn(page)).toEqual(Array(4).fill('Heat (1995)'))
    expect(await page.locator('#q').inputValue()).toBe('heat')
    await page.goForward()
    await expect.poll(() => titlesOn(page)).toHaveLength(SEEDS.length)
    expect(await page.locator('#q').inputValue()).toBe('')
    await page.context().close()
  })

  it('shows the year in review: the counts of the year as charts and tables, the rewatched', async () => {
    const page = await open('/#review')
    const seen = watchRequests(page)
    await page.reload() // watched from the start
    const status = page.locator('#review [role="status"]')
    await expect.poll(() => status.textContent()).toBe(`7 movies screened in ${year}.`)
    const now = expected(year)
    expect(now.total).toBe(7)
    expect(await tables(page)).toEqual(now.tables)
    expect(await page.locator('#review figure svg rect.bar').count()).toBe(12 + 7 + 24 + 4)
    expect(await page.locator('#review ol li').allTextContents()).toEqual(['Heat: 3 times'])
    expect(await seriousViolations(page)).toEqual([])

    // Another year, picked.
    await page.selectOption('#review-year', String(year - 1))
    await expect.poll(() => status.textContent()).toBe(`2 movies screened in ${year - 1}.`)
    expect(await tables(page)).toEqual(expected(year - 1).tables)
    expect(await page.locator('#review ol li').count()).toBe(0)
    expect(await page.locator('#review .none').textContent()).toBe(
      `No movie screened more than once in ${year - 1}.`,
    )

    // A movie added elsewhere is counted at once (the feed).
    await page.selectOption('#review-year', String(year))
    await expect.poll(() => status.textContent()).toBe(`7 movies screened in ${year}.`)
    const added = await log().addMovie(
      aMovie({ title: 'Heat', screenedDate: `${year}-02-02T20:00:00.000` }),
    )
    await expect.poll(() => status.textContent()).toBe(`8 movies screened in ${year}.`)
    expect((await tables(page))[0]?.[1]).toBe('February 1')
    expect(await page.locator('#review ol li').allTextContents()).toEqual(['Heat: 4 times'])
    await log().deleteMovie(added.id)
    await expect.poll(() => status.textContent()).toBe(`7 movies screened in ${year}.`)
    expect(seen.urls.filter((url) => new URL(url).origin !== site.origin)).toEqual([])
    expect(seen.refused).toEqual([])
    await page.context().close()
  })

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`reads at 375 and 1280 pixels, ${colorScheme}, axe clean`, async () => {
      for (const width of [375, 1280]) {
        const page = await open('/#review', width, colorScheme)
        const status = page.locator('#review [role="status"]')
        await expect.poll(() => status.textContent()).toBe(`7 movies screened in ${year}.`)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          width,
        )
        expect(await seriousViolations(page)).toEqual([])
        await page
          .locator('#review')
          .screenshot({ path: shot(`review-${width}-${colorScheme}.png`) })
        await page.context().close()
      }
    })
  }
})
