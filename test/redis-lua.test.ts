import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { SCRIPTS, shaOf } from '../src/drivers/redis/lua'
import { redisSuite } from './_redis-suite'
import { describeWith } from './_services'

// Issue 56: the Redis driver's Lua lives in redis/lua/, each script named once in its registry.
const folder = join(import.meta.dirname, '../src/drivers/redis')
const lua = join(folder, 'lua')
// The Lua function the write scripts include: a piece of a script, not one of its own.
const FRAGMENTS = new Set(['COUNT_TERMS'])

it('holds every Lua script of the Redis driver in redis/lua, each in the registry', async () => {
  const registered = new Set<string>(Object.values(SCRIPTS))
  for (const file of readdirSync(lua).filter((name) => name !== 'index.ts')) {
    const module: Record<string, unknown> = await import(join(lua, file))
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== 'string' || FRAGMENTS.has(name)) continue
      expect(registered.has(value), `${file}: ${name} is not in SCRIPTS`).toBe(true)
    }
  }
  const outside = readdirSync(folder).filter(
    (name) =>
      name.endsWith('.ts') && readFileSync(join(folder, name), 'utf8').includes('redis.call('),
  )
  expect(outside).toEqual([])
})

describeWith('REDIS_URL', 'the Redis scripts', () => {
  const suite = redisSuite(process.env.REDIS_URL as string)

  it('compile in Redis, each to the SHA-1 the driver runs it by', async () => {
    const redis = await suite.connected()
    for (const [name, script] of Object.entries(SCRIPTS)) {
      const sha = await redis.sendCommand(['SCRIPT', 'LOAD', script]).catch((error: Error) => {
        throw new Error(`${name}: ${error.message}`)
      })
      expect(sha, name).toBe(shaOf(script))
    }
  })
})
