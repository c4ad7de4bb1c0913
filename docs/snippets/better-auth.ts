import { memoryAdapter } from 'better-auth/adapters/memory'

const database = memoryAdapter({})

// #region snippet
import { betterAuth } from 'better-auth'
import { Hono } from 'hono'
import { createMovieLogs } from 'movie-log'
import { toWebHandler } from 'movie-log/web'

const auth = betterAuth({ database, emailAndPassword: { enabled: true } }) // your database
const logs = createMovieLogs('postgres://app@db/app')
const app = new Hono()
app.on(['GET', 'POST'], '/api/auth/*', (c) => auth.handler(c.req.raw))
app.mount(
  '/movies',
  toWebHandler(logs, {
    owner: async (request) => (await auth.api.getSession({ headers: request.headers }))?.user.id,
  }),
)
// #endregion snippet
