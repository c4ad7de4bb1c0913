import { expect, it } from 'vitest'
import { missing } from './_services'

// What a suite that needs a service says when it is missing; test/ci/services.test.ts runs
// those suites on a bare machine to see them skip (and fail under CI=true).
it('names what is missing, and starts redis-server only where Redis is wanted', () => {
  expect(missing('REDIS_URL', {})).toBe('set REDIS_URL to run')
  expect(missing('POSTGRES_URL', { POSTGRES_URL: 'postgres://x' })).toBeUndefined()
  expect(missing('redis-server', { PATH: '/usr/bin:/bin' })).toMatch(/set REDIS_URL/)
  expect(missing('redis-server', { CI: 'true', PATH: '/nowhere' })).toMatch(/not on PATH/)
  expect(missing('redis-cluster', { REDIS_URL: 'redis://x' })).toMatch(/set REDIS_CLUSTER=1/)
  expect(missing('redis-cluster', { CI: 'true', PATH: '/nowhere' })).toMatch(/not on PATH/)
  expect(missing('CI', {})).toBe('runs under CI=true')
  expect(missing('CI', { CI: 'true' })).toBeUndefined()
})
