// What a Redis suite of its own keys needs: namespaces of its own, each dropped after the suite,
// and a client of its own to read and alter the keys the driver wrote.
import { randomUUID } from 'node:crypto'
import { createClient } from '@keyv/redis'
import { afterAll } from 'vitest'
import { openRedisDriver } from '../src/drivers/redis/driver'

/** Call inside the suite: its `afterAll` drops every namespace made, then closes the client. */
export function redisSuite(url: string) {
  const namespaces: string[] = []
  const raw = createClient({ url })
  afterAll(async () => {
    for (const namespace of namespaces) {
      const driver = await openRedisDriver(url, { namespace, connectTimeoutMs: 1000 })
      await driver.drop('').finally(() => driver.close())
    }
    if (raw.isOpen) await raw.close()
  })
  return {
    /** A new namespace, `<prefix>-<uuid>`, dropped after the suite. */
    namespace: (prefix: string) => {
      const namespace = `${prefix}-${randomUUID()}`
      namespaces.push(namespace)
      return namespace
    },
    /** The suite's own client, connected. */
    connected: async () => {
      if (!raw.isOpen) await raw.connect()
      return raw
    },
  }
}
