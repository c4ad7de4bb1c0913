import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  launchChromium,
  NO_BROWSER,
  seriousViolations,
  startSite,
  watchRequests,
} from '../_browser'
import { describeUnless } from '../_services'

// /docs, the API reference of the OpenAPI document the handler serves, in a real Chromium.
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options']

describeUnless(NO_BROWSER, 'Chromium', 'the API reference at /docs', () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let browser: Browser

  beforeAll(async () => {
    site = await startSite()
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  it('lists every path and operation of /movies/openapi.json, loading nothing from another host', async () => {
    const document = (await (await fetch(`${site.server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>
    }
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 } })
    ).newPage()
    const seen = watchRequests(page)
    const response = await page.goto(`${site.origin}/docs`)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'")
    const headings = await page.locator('section.operation h2').allTextContents()
    const expected = Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(expected.length).toBeGreaterThanOrEqual(8)
    expect(headings).toEqual(expected)
    // Every schema a response or body names is on the page, where its link points.
    for (const href of await page
      .locator('a[href^="#schema-"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')))) {
      expect(await page.locator(href as string).count(), href as string).toBe(1)
    }
    // The style arrived (the CSP allows this host's stylesheet): operations are boxed.
    const border = await page
      .locator('section.operation')
      .first()
      .evaluate((node) => getComputedStyle(node).borderTopStyle)
    expect(border).toBe('solid')
    expect(await seriousViolations(page)).toEqual([])
    expect(seen.urls.filter((url) => new URL(url).origin !== site.origin)).toEqual([])
    expect(seen.refused).toEqual([])
  })
})
