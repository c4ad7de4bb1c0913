import { join } from 'node:path'
import { createMovieLogClient } from 'movie-log/client'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildPage } from '../../src/page/server/build'
import { launchChromium, NO_BROWSER, screenshots, seriousViolations, titlesOn } from '../_browser'
import { aMovie } from '../_movies'
import { type ServerProcess, startServerProcess, stop } from '../_processes'
import { describeUnless } from '../_services'
import { tempFolders } from '../_temp'

// The diary page with the server gone, in a real Chromium: the service worker gives the page
// back on a reload, the page shows the diary last seen and keeps adds in IndexedDB, each with
// the Idempotency-Key chosen when it was made, and sends them once when the server is back.
// The server runs on SQLite, so that it can be stopped and started again on the same port.
const shot = screenshots()
const folder = tempFolders()

describeUnless(NO_BROWSER, 'Chromium', 'the diary page offline', () => {
  let env: Record<string, string>
  let server: ServerProcess | undefined
  let port: number
  let origin: string
  let browser: Browser
  let page: Page
  const log = () => createMovieLogClient(`${origin}/movies`)
  const stored = async () => (await log().listMovies()).movies.map((movie) => movie.title).sort()
  // The Idempotency-Key of every add the page sends.
  const keys: string[] = []

  const start = async () => {
    server = await startServerProcess(env, port)
    port = server.port
    origin = new URL(server.url).origin
  }

  beforeAll(async () => {
    const work = folder('movie-log-page-offline-')
    const built = await buildPage(join(work, 'page'))
    env = {
      MOVIE_LOG_STORE: `sqlite://${join(work, 'movies.sqlite')}`,
      MOVIE_LOG_PAGE_DIR: built.dir,
    }
    await start()
    await log().addMovie(aMovie({ title: 'Heat', screenedDate: '2024-05-01T20:30:00.000' }))
    browser = await launchChromium()
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } })
    page = await context.newPage()
    page.setDefaultTimeout(20_000) // only stops a hung step
    page.on('request', (request) => {
      const key = request.headers()['idempotency-key']
      if (request.method() === 'POST' && key) keys.push(key)
    })
  })
  afterAll(async () => {
    await browser?.close()
    if (server) await stop(server)
  })

  const fillAdd = async (title: string, day: number) => {
    await page.fill('#add-title', title)
    await page.fill('#add-screenedDate', `2024-06-${String(day).padStart(2, '0')}T20:00`)
    await page.fill('#add-releaseYear', '1999')
    await page.fill('#add-imdbLink', 'https://www.imdb.com/title/tt0133093/')
    await page.click('button:has-text("Add to the diary")')
  }
  const waiting = () => page.locator('#waiting li h3').allTextContents()
  const offline = (on: Page) => on.locator('#offline')

  it('is kept by its service worker once seen online', async () => {
    await page.goto(`${origin}/`)
    await expect.poll(() => titlesOn(page)).toEqual(['Heat (1995)'])
    // The worker controls the page, and the diary shown is kept on the device.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true)
    await expect.poll(() => keptDiaryTitles(page)).toEqual(['Heat'])
  })

  it('shows the diary last seen after a reload with the server gone, and says it is offline', async () => {
    if (server) await stop(server)
    await page.reload()
    await expect.poll(() => offline(page).isVisible()).toBe(true)
    expect(await offline(page).textContent()).toMatch(/^Offline: the server cannot be reached\./)
    expect(await titlesOn(page)).toEqual(['Heat (1995)'])
    expect(await seriousViolations(page)).toEqual([])
  })

  it('keeps three adds made offline, each with its own key, through a reload', async () => {
    for (const [n, title] of ['Alien', 'Brazil', 'Contact'].entries()) {
      await fillAdd(title, n + 1)
      await expect.poll(waiting).toHaveLength(n + 1)
    }
    expect(await waiting()).toEqual(['Alien (1999)', 'Brazil (1999)', 'Contact (1999)'])
    expect(await page.inputValue('#add-title')).toBe('')
    expect(await page.locator('#status').textContent()).toContain(
      'will be added when the server is back',
    )
    await page.screenshot({ path: shot('diary-375-offline.png'), fullPage: true })
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.screenshot({ path: shot('diary-1280-offline.png') })
    expect(await seriousViolations(page)).toEqual([])
    await page.setViewportSize({ width: 375, height: 800 })
    expect(await seriousViolations(page)).toEqual([])
    await page.reload()
    await expect.poll(waiting).toEqual(['Alien (1999)', 'Brazil (1999)', 'Contact (1999)'])
    const kept = await keptAddKeys(page)
    expect(new Set(kept).size).toBe(3)
  })

  it('sends them when the server is back, and the server stores each once', async () => {
    const kept = await keptAddKeys(page)
    await start()
    await expect.poll(stored).toEqual(['Alien', 'Brazil', 'Contact', 'Heat'])
    await expect.poll(() => offline(page).isVisible()).toBe(false)
    await expect.poll(waiting).toEqual([])
    await expect
      .poll(() => titlesOn(page))
      .toEqual(['Contact (1999)', 'Brazil (1999)', 'Alien (1999)', 'Heat (1995)'])
    // Every add the page sent carried one of the keys chosen when they were made.
    expect(new Set(keys)).toEqual(new Set(kept))
    expect(await stored()).toHaveLength(4)
  })

  it('stores an add once when its answer is lost after the server stored it', async () => {
    let lost = 0
    // The server stores the add, and the answer never reaches the page.
    await page.route(`${origin}/movies`, async (route) => {
      if (route.request().method() !== 'POST') return route.fallback()
      await route.fetch()
      lost++
      await route.abort('internetdisconnected')
    })
    const before = keys.length
    await fillAdd('Dune', 4)
    await expect.poll(waiting).toEqual(['Dune (1999)'])
    expect(lost).toBeGreaterThan(0)
    expect(await stored()).toContain('Dune')
    // A reload: the add is still waiting, with its key, and goes once the answers get through.
    await page.unrouteAll({ behavior: 'wait' })
    await page.reload()
    await expect.poll(waiting).toEqual([])
    await expect.poll(() => titlesOn(page)).toContain('Dune (1999)')
    const sent = keys.slice(before)
    expect(sent.length).toBeGreaterThan(lost)
    expect(new Set(sent).size).toBe(1)
    expect((await stored()).filter((title) => title === 'Dune')).toHaveLength(1)
  })
})

// What the page keeps in IndexedDB (src/page/browser/outbox.ts), read in the page: no token, so the
// outbox of `anyone`.
function keptDiaryTitles(page: Page): Promise<string[]> {
  return readStore(page, 'seen', 'diary').then((diary) =>
    ((diary as { movies?: { title: string }[] } | undefined)?.movies ?? []).map((m) => m.title),
  )
}
function keptAddKeys(page: Page): Promise<string[]> {
  return readStore(page, 'adds').then((adds) => (adds as { key: string }[]).map((add) => add.key))
}
function readStore(page: Page, store: string, key?: string): Promise<unknown> {
  return page.evaluate(
    ({ store, key, name }) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open(name)
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const request = open.result
            .transaction(store, 'readonly')
            .objectStore(store)
            [key === undefined ? 'getAll' : 'get'](key as string)
          request.onsuccess = () => {
            open.result.close()
            resolve(request.result)
          }
        }
      }),
    { store, key, name: `movie-log ${new URL('/movies', page.url()).href} anyone` },
  )
}
