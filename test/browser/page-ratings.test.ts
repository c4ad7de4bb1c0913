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
} from '../_browser'
import { aMovie } from '../_movies'
import { describeUnless } from '../_services'

// Ratings and tags on the page in a real Chromium (issue 57): the rating rated and cleared by
// keyboard, tags as chips, an edit that removes both, the tag filter with the search and the
// year, each entry's stars and tags, the review's ratings and top tags; the docs' rated-*.png.
const shot = screenshots()

const year = new Date().getFullYear()
const SEEDS = [
  { title: 'Suspiria', rating: 9, tags: ['horror', 'festival'], on: `${year}-01-10` },
  { title: 'Heat', rating: 7, tags: ['crime'], on: `${year}-02-11` },
  { title: 'Halloween', rating: 8, tags: ['horror'], on: `${year}-03-12` },
  { title: 'Paris, Texas', rating: 10, tags: ['festival', 'road'], on: `${year}-04-13` },
  { title: 'Cats', rating: 1, tags: [], on: `${year}-05-14` },
  { title: 'The Thing', rating: 8, tags: ['horror'], on: `${year - 1}-10-31` },
].map(({ title, rating, tags, on }, n) => ({
  ...aMovie({
    title,
    screenedDate: `${on}T20:00:00.000`,
    releaseYear: 1977 + n,
    imdbLink: `https://www.imdb.com/title/tt00000${n}1/`, // one movie each: none rewatched
    notes: '',
  }),
  rating,
  ...(tags.length > 0 ? { tags } : {}),
}))
const titled = (...titles: string[]) =>
  titles.map((title) => {
    const seed = SEEDS.find((movie) => movie.title === title)
    return `${title} (${seed?.releaseYear})`
  })

describeUnless(NO_BROWSER, 'Chromium', 'ratings and tags on the diary page', () => {
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

  async function open(path = '/', width = 1280): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 } })
    const page = await context.newPage()
    page.setDefaultTimeout(20_000) // only stops a hung step
    await page.goto(`${site.origin}${path}`)
    await page.locator('#movies li.movie').first().waitFor()
    return page
  }
  const checked = (page: Page, form: string) =>
    page.locator(`${form} .stars input:checked`).evaluateAll((all) => all.map((radio) => radio.id))
  const chips = (page: Page, form: string) =>
    page
      .locator(`${form} .chip`)
      .evaluateAll((all) => all.map((chip) => chip.firstChild?.textContent))

  // A hang guard only: under a loaded machine a Chromium test of many steps takes longer.
  const LONG = 120_000

  it(
    'rates by keyboard and clears',
    async () => {
      const page = await open()
      // Each half star is a radio named in words; the arrow keys move along them.
      expect(await page.locator('label[for="add-rating-7"]').textContent()).toBe('3½ stars')
      expect(await page.locator('label[for="add-rating-1"]').textContent()).toBe('½ star')
      await page.locator('#add-rating-1').focus()
      await page.keyboard.press('Space')
      for (let n = 0; n < 6; n++) await page.keyboard.press('ArrowRight')
      expect(await checked(page, '#add')).toEqual(['add-rating-7'])
      await page.keyboard.press('Delete')
      expect(await checked(page, '#add')).toEqual([])
      await page.keyboard.press('ArrowRight') // from 3½, focused still
      expect(await checked(page, '#add')).toEqual(['add-rating-8'])
      await page.click('#add .field-rating .clear')
      expect(await checked(page, '#add')).toEqual([])
      expect(await seriousViolations(page)).toEqual([])
      await page.context().close()
    },
    LONG,
  )

  it(
    'makes and removes tag chips, and adds a rated, tagged movie',
    async () => {
      const page = await open()
      await page.click('label[for="add-rating-8"]') // 4 stars, by pointer
      // Enter and a comma make chips (a tag given twice, in another case, is one); Backspace in
      // the empty field and a chip's × take them away.
      const tags = page.locator('#add-tags')
      await tags.pressSequentially('noir')
      await tags.press('Enter')
      await tags.pressSequentially('festival, Noir,rainy day,')
      expect(await chips(page, '#add')).toEqual(['noir', 'festival', 'rainy day'])
      await tags.press('Backspace')
      expect(await chips(page, '#add')).toEqual(['noir', 'festival'])
      await page.click('#add button[aria-label="Remove tag noir"]')
      expect(await chips(page, '#add')).toEqual(['festival'])
      expect(await seriousViolations(page)).toEqual([])

      await page.fill('#add-title', 'Vertigo')
      await page.fill('#add-screenedDate', `${year}-06-01T21:00`)
      await page.fill('#add-releaseYear', '1958')
      await page.fill('#add-imdbLink', 'https://www.imdb.com/title/tt0052357/')
      await tags.pressSequentially('classic') // typed, not yet a chip: it is sent too
      await page.click('#add button[type="submit"]')
      await expect.poll(() => titlesOn(page)).toContain('Vertigo (1958)')
      const [added] = (await log().listMovies({ q: 'vertigo' })).movies
      expect(added).toMatchObject({ rating: 8, tags: ['festival', 'classic'] })
      // The form is empty again, chips and stars included.
      expect(await chips(page, '#add')).toEqual([])
      expect(await checked(page, '#add')).toEqual([])

      // The entry shows its stars (in words for screen readers) and its tags.
      const item = page.locator(`li[data-id="${added?.id}"]`)
      expect(await item.locator('.rating').getAttribute('aria-label')).toBe('Rated 4 stars')
      expect(await item.locator('.rating i.full').count()).toBe(4)
      expect(await item.locator('.tags li').allTextContents()).toEqual(['festival', 'classic'])
      const heat = page.locator('li.movie', { hasText: 'Heat' })
      expect(await heat.locator('.rating').getAttribute('aria-label')).toBe('Rated 3½ stars')
      expect(await heat.locator('.rating i.half').count()).toBe(1)
      await log().deleteMovie(added?.id ?? '')
      await page.context().close()
    },
    LONG,
  )

  it('edits a rating and tags, and removes both (null)', async () => {
    const alien = aMovie({ title: 'Alien', screenedDate: `${year - 2}-01-01T20:00:00.000` })
    const movie = await log().addMovie({ ...alien, ...{ rating: 9, tags: ['space', 'horror'] } })
    const stored = async () =>
      (await log().getMovie(movie.id)) as unknown as Record<string, unknown>
    const page = await open()
    const item = page.locator(`li[data-id="${movie.id}"]`)
    await item.locator('button', { hasText: 'Edit' }).click()
    const form = `li[data-id="${movie.id}"] form`
    expect(await checked(page, form)).toEqual([`edit-${movie.id}-rating-9`])
    expect(await chips(page, form)).toEqual(['space', 'horror'])
    await page.click(`${form} button[aria-label="Remove tag space"]`)
    await page.click(`${form} button[type="submit"]`)
    await expect.poll(async () => (await stored()).tags).toEqual(['horror'])

    await item.locator('button', { hasText: 'Edit' }).click()
    await page.click(`${form} .field-rating .clear`)
    await page.click(`${form} button[aria-label="Remove tag horror"]`)
    await page.click(`${form} button[type="submit"]`)
    await expect.poll(() => item.locator('form').count()).toBe(0)
    const saved = await log().getMovie(movie.id)
    expect(saved && 'rating' in saved).toBe(false)
    expect(saved && 'tags' in saved).toBe(false)
    expect(await item.locator('.rating, .tags').count()).toBe(0)
    await log().deleteMovie(movie.id)
    await page.context().close()
  })

  it('filters by tag, with the search and the year, and suggests the person’s tags', async () => {
    const page = await open()
    // The person's tags, most used first (case and accents counted as one).
    const offered = () => page.locator('#tag option').allTextContents()
    await expect
      .poll(offered)
      .toEqual(['All tags', 'horror (3)', 'festival (2)', 'crime (1)', 'road (1)'])
    expect(
      await page
        .locator('#tag-suggestions option')
        .evaluateAll((all) => all.map((option) => (option as HTMLOptionElement).value)),
    ).toEqual(['horror', 'festival', 'crime', 'road'])

    await page.selectOption('#tag', 'horror')
    await expect.poll(() => titlesOn(page)).toEqual(titled('Halloween', 'Suspiria', 'The Thing'))
    expect(await page.locator('#status').textContent()).toBe('Showing movies tagged “horror”.')
    await page.fill('#year', String(year))
    await page.keyboard.press('Enter')
    await expect.poll(() => titlesOn(page)).toEqual(titled('Halloween', 'Suspiria'))
    await page.locator('#q').pressSequentially('susp')
    await expect.poll(() => titlesOn(page)).toEqual(titled('Suspiria'))
    expect(await page.locator('#status').textContent()).toBe(
      `1 movie tagged “horror” screened in ${year} matching “susp”.`,
    )
    await page.locator('#q').press('Escape')
    await page.selectOption('#tag', 'road')
    await page.fill('#year', String(year - 1))
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.locator('#empty').textContent())
      .toBe(
        `No movie tagged “road” screened in ${year - 1}. Choose another year or tag, or show them all.`,
      )
    await page.selectOption('#tag', '')
    await expect.poll(() => titlesOn(page)).toEqual(titled('The Thing'))
    expect(await seriousViolations(page)).toEqual([])
    await page.context().close()
  })

  it('charts the ratings of the year and its top tags', async () => {
    const page = await open('/#review')
    const status = page.locator('#review [role="status"]')
    await expect.poll(() => status.textContent()).toBe(`5 movies screened in ${year}.`)
    const table = page.locator('#review table', { hasText: 'By rating' })
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((all) =>
        all.map((row) => [...row.children].map((cell) => cell.textContent).join(' ')),
      )
    // Ratings 9, 7, 8, 10 and 1 this year: a bar each, half a star apart.
    expect(rows).toEqual([
      '½ star 1',
      '1 star 0',
      '1½ stars 0',
      '2 stars 0',
      '2½ stars 0',
      '3 stars 0',
      '3½ stars 1',
      '4 stars 1',
      '4½ stars 1',
      '5 stars 1',
    ])
    expect(await page.locator('#review .top-tags li').allTextContents()).toEqual([
      'festival: 2',
      'horror: 2',
      'crime: 1',
      'road: 1',
    ])
    expect(await seriousViolations(page)).toEqual([])
    await page.selectOption('#review-year', String(year - 1))
    await expect
      .poll(() => page.locator('#review .top-tags li').allTextContents())
      .toEqual(['horror: 1'])
    await page.context().close()
  })

  for (const width of [375, 1280]) {
    it(
      `reads at ${width} pixels with ratings, tags and the review charts`,
      async () => {
        const page = await open('/', width)
        await page.click('label[for="add-rating-7"]')
        await page.locator('#add-tags').pressSequentially('festival,noir,')
        await expect.poll(() => page.locator('#tag option').count()).toBeGreaterThan(1)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          width,
        )
        await page.screenshot({ path: shot(`rated-${width}.png`), fullPage: width === 375 })
        await page.evaluate(() => {
          const review = document.getElementById('review') as HTMLDetailsElement
          review.open = true
        })
        const status = page.locator('#review [role="status"]')
        await expect.poll(() => status.textContent()).toBe(`5 movies screened in ${year}.`)
        expect(await seriousViolations(page)).toEqual([])
        await page.locator('#review').screenshot({ path: shot(`review-rated-${width}.png`) })
        await page.context().close()
      },
      LONG,
    )
  }
})
