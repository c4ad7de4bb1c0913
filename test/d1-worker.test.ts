// Issue 35: the D1 driver inside workerd (Miniflare), as a Worker runs it: the driver loads
// there, and a watch's poll, its timer made in the request that streams, wakes it when another
// request writes the log through a driver of its own.
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ownMiniflare } from './_worker'

const ENTRY = fileURLToPath(new URL('./fixtures/d1-watch-worker.ts', import.meta.url))

describe('D1 driver in a Worker (workerd)', () => {
  let miniflare: Miniflare
  beforeAll(async () => {
    const bundled = await build({
      entryPoints: [ENTRY],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      write: false,
    })
    miniflare = ownMiniflare({
      modules: true,
      script: bundled.outputFiles[0]?.text as string,
      d1Databases: ['DB'],
      cf: false,
      compatibilityDate: '2026-04-26',
    })
  })
  afterAll(() => miniflare?.dispose())

  it('wakes a watch streaming in one request when another request writes the log', async () => {
    const namespace = `test-${randomUUID()}`
    const watch = await miniflare.dispatchFetch(`http://worker/watch?namespace=${namespace}`)
    const reader = (watch.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    const nextLine = async () => {
      const { value, done } = await reader.read()
      expect(done).toBe(false)
      return decoder.decode(value)
    }
    try {
      // The poll's first read, in workerd.
      expect(await nextLine()).toBe('woken\n')
      const written = await miniflare.dispatchFetch(`http://worker/write?namespace=${namespace}`)
      expect(await written.text()).toMatch(/^written /)
      // Only the watch's own timer, in its own request, can have seen that write.
      expect(await nextLine()).toBe('woken\n')
    } finally {
      await reader.cancel()
    }
  })
})
