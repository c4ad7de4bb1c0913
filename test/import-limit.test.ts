// The bound on a handler's imports (src/http/import-limit.ts): an import counts until it ends,
// which may be after its answer began, so a 503 comes only while the others still run.
import { expect, it } from 'vitest'
import { createImportLimit } from '../src/http/import-limit'
import type { Reply } from '../src/http/reply'

const ok = (): Reply => ({ status: 200, headers: {}, body: null })

it('refuses an import past the bound until one running ends, even after its answer', async () => {
  const importing = createImportLimit(2)
  const ends: (() => void)[] = []
  const start = () =>
    importing(async () => ({ reply: ok(), ended: new Promise<void>((end) => ends.push(end)) }))
  expect((await start()).status).toBe(200)
  expect((await start()).status).toBe(200)
  const refused = await start()
  expect([refused.status, refused.headers['retry-after']]).toEqual([503, '5'])
  ends[0]?.()
  await new Promise((settled) => setImmediate(settled))
  expect((await start()).status).toBe(200)
  expect((await start()).status).toBe(503)
})

it('frees its place when the import fails before it answers', async () => {
  const importing = createImportLimit(1)
  await expect(importing(() => Promise.reject(new Error('unreadable')))).rejects.toThrow()
  expect((await importing(async () => ({ reply: ok(), ended: Promise.resolve() }))).status).toBe(
    200,
  )
})
