import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { userLine } from '../../src/server/users'
import { launchChromium, NO_BROWSER, startSite, titlesOn } from '../_browser'
import { describeUnless } from '../_services'
import { tempFolders } from '../_temp'

// The diary page of a household server (MOVIE_LOG_USERS) in a real Chromium: each person is
// asked for their token as the page opens, and then sees their own diary only.
const folder = tempFolders()
const TOKENS = { alice: 'alice-page-token-0123456789', bob: 'bob-page-token-0123456789' }

describeUnless(NO_BROWSER, 'Chromium', 'the diary page of a household', () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let browser: Browser

  beforeAll(async () => {
    const work = folder('movie-log-page-household-')
    const users = join(work, 'users')
    writeFileSync(users, userLine('alice', TOKENS.alice) + userLine('bob', TOKENS.bob))
    site = await startSite({ MOVIE_LOG_USERS: users })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  /** A person opening the page in a browser of their own, giving their token when asked. */
  async function signIn(token: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage()
    page.setDefaultTimeout(20_000)
    await page.goto(`${site.origin}/`)
    const dialog = page.locator('dialog#token')
    await dialog.waitFor({ state: 'visible' })
    await page.fill('#token-input', token)
    await page.keyboard.press('Enter')
    await dialog.waitFor({ state: 'hidden' })
    return page
  }

  it("asks each person for their token as it opens, then shows that person's diary only", async () => {
    const alice = await signIn(TOKENS.alice)
    await expect.poll(() => alice.locator('#empty').textContent()).toContain('Your diary is empty')
    await alice.fill('#add-title', 'Heat')
    await alice.fill('#add-screenedDate', '2024-05-01T20:30')
    await alice.fill('#add-releaseYear', '1995')
    await alice.fill('#add-imdbLink', 'https://www.imdb.com/title/tt0113277/')
    await alice.click('button:has-text("Add to the diary")')
    await expect.poll(() => titlesOn(alice)).toEqual(['Heat (1995)'])

    const bob = await signIn(TOKENS.bob)
    await expect.poll(() => bob.locator('#empty').textContent()).toContain('Your diary is empty')
    expect(await titlesOn(bob)).toEqual([])
    await alice.reload()
    await expect.poll(() => titlesOn(alice)).toEqual(['Heat (1995)'])
  })
})
