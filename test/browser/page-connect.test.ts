import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { userLine } from '../../src/server/users'
import {
  launchChromium,
  NO_BROWSER,
  screenshots,
  seriousViolations,
  startSite,
  titlesOn,
} from '../_browser'
import { fixture, plexDelivery, requestInit } from '../_scrobble'
import { describeUnless } from '../_services'
import { tempFolders } from '../_temp'
import { refusal, traktClient, traktMovie } from '../_trakt'

// The page's "Connect your media server" panel on a household server, in a real Chromium: the
// addresses it shows are the person's own, and a Plex delivery to the one shown lands in their
// diary. Its screenshot (SCREENSHOTS=1) is the docs' scrobbles guide's.
const folder = tempFolders()
const shot = screenshots()
const TOKENS = { alice: 'alice-connect-token-0123456789', bob: 'bob-connect-token-0123456789' }

describeUnless(NO_BROWSER, 'Chromium', "the diary page's media server panel", () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let browser: Browser

  beforeAll(async () => {
    const work = folder('movie-log-page-connect-')
    const users = join(work, 'users')
    writeFileSync(users, userLine('alice', TOKENS.alice) + userLine('bob', TOKENS.bob))
    site = await startSite({ MOVIE_LOG_USERS: users, MOVIE_LOG_TIME_ZONE: 'Europe/Paris' })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  async function signIn(token: string, width: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 } })
    const page = await context.newPage()
    page.setDefaultTimeout(20_000)
    await page.goto(`${site.origin}/`)
    await page.locator('dialog#token').waitFor({ state: 'visible' })
    await page.fill('#token-input', token)
    await page.keyboard.press('Enter')
    await page.locator('dialog#token').waitFor({ state: 'hidden' })
    await expect.poll(() => page.locator('#empty').textContent()).toContain('Your diary is empty')
    return page
  }

  const addressesOn = (page: Page) => page.locator('code[data-hook]').allTextContents()

  it("shows each person their own webhook addresses, and Plex's logs into their diary", async () => {
    const alice = await signIn(TOKENS.alice, 1280)
    await alice.click('#connect summary')
    const base = `${site.origin}/movies/scrobble`
    expect(await addressesOn(alice)).toEqual(
      ['plex', 'jellyfin', 'emby', 'kodi', 'generic'].map(
        (source) => `${base}/${source}?token=${TOKENS.alice}`,
      ),
    )
    expect(await seriousViolations(alice)).toEqual([])
    // What Plex does with the address the page showed.
    const plex = (await addressesOn(alice))[0] as string
    const delivered = await fetch(plex, requestInit(plexDelivery(fixture('plex-movie-scrobble'))))
    expect(delivered.status).toBe(201)
    await expect.poll(() => titlesOn(alice)).toEqual(['The Shawshank Redemption (1994)'])
    await alice.locator('#connect').scrollIntoViewIfNeeded()
    await alice.screenshot({ path: shot('connect-1280.png'), fullPage: true })

    const bob = await signIn(TOKENS.bob, 375)
    await bob.click('#connect summary')
    expect(await addressesOn(bob)).toEqual(
      ['plex', 'jellyfin', 'emby', 'kodi', 'generic'].map(
        (source) => `${base}/${source}?token=${TOKENS.bob}`,
      ),
    )
    expect(await titlesOn(bob)).toEqual([])
    expect(await seriousViolations(bob)).toEqual([])
    await bob.locator('#connect').screenshot({ path: shot('connect-375.png') })
  })

  it("approves a Trakt app's code for the person who types it, from /activate", {
    timeout: 120_000,
  }, async () => {
    const alice = await signIn(TOKENS.alice, 1280)
    const app = traktClient(`${site.origin}/movies`)
    const codes = await app.get_codes()
    // Where the app sends the person: the page, at the panel's code form.
    expect(codes.verification_url).toBe(`${site.origin}/activate`)
    await alice.goto(codes.verification_url)
    await expect.poll(() => alice.locator('#connect').getAttribute('open')).not.toBeNull()
    await expect
      .poll(() => alice.locator('#trakt-address').textContent())
      .toBe(`${site.origin}/movies/trakt`)
    await alice.fill('#trakt-code', codes.user_code.toLowerCase())
    await alice.click('#trakt-form button')
    await expect.poll(() => alice.locator('#trakt-said').textContent()).toContain('Approved')
    expect(await seriousViolations(alice)).toEqual([])
    await app.poll_access(codes)
    expect((await app.users.settings()).user.username).toBe('alice')
    await app.scrobble.stop({ movie: traktMovie('Heat', 1995, 'tt0113277'), progress: 95 })
    await expect.poll(() => titlesOn(alice)).toContain('Heat (1995)')
    await alice.fill('#trakt-code', 'NOSUCH00')
    await alice.click('#trakt-form button')
    await expect
      .poll(() => alice.locator('#trakt-said').textContent())
      .toContain('No app is waiting')

    // The app is listed with its client_id; Bob, on his own page, sees none of Alice's.
    const apps = alice.locator('#trakt-apps li')
    await expect
      .poll(() => apps.allTextContents())
      .toEqual([expect.stringMatching(/^Approved .+ \(movie-log-test\) Revoke$/)])
    expect(await alice.locator('#trakt-none').isHidden()).toBe(true)
    const bob = await signIn(TOKENS.bob, 1280)
    await bob.locator('#connect summary').click()
    await expect.poll(() => bob.locator('#trakt-none').isVisible()).toBe(true)
    expect(await bob.locator('#trakt-apps li').count()).toBe(0)
    // Revoked from the page, from the keyboard: the app's token stops acting at once.
    await alice.locator('#trakt-apps').scrollIntoViewIfNeeded()
    await alice.screenshot({ path: shot('trakt-apps-1280.png'), fullPage: false })
    const revoke = alice.getByRole('button', { name: /^Revoke the app approved on / })
    await revoke.focus()
    await alice.keyboard.press('Enter')
    await expect
      .poll(() => alice.locator('#trakt-said').textContent())
      .toBe('Revoked: that app no longer logs into your diary.')
    await expect.poll(() => apps.count()).toBe(0)
    expect(await alice.locator('#trakt-none').isVisible()).toBe(true)
    expect(await seriousViolations(alice)).toEqual([])
    expect((await refusal(app.users.settings())).status).toBe(401)
  })
})
