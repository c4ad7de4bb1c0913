/**
 * movie-log in a Hono app whose users sign in with better-auth: each person keeps their own diary.
 *
 *   npx tsx examples/better-auth.ts   -> http://127.0.0.1:3000/api/auth/sign-up/email, then /movies
 */
import { pathToFileURL } from 'node:url'
import { betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { Hono } from 'hono'
import { createMovieLogs, type MovieLogs } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { serve } from 'srvx'

export function createBetterAuthApp(baseURL: string, logs: MovieLogs = createMovieLogs()): Hono {
  const auth = betterAuth({
    baseURL, // its secret comes from BETTER_AUTH_SECRET, which production must set
    // Accounts in memory, as the diaries are: a real app gives both a database.
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    emailAndPassword: { enabled: true },
  })
  const app = new Hono()
  app.on(['GET', 'POST'], '/api/auth/*', (c) => auth.handler(c.req.raw))
  // The signed-in user's id names the diary; no session is a 401, before the log is touched.
  app.mount(
    '/movies',
    toWebHandler(logs, {
      owner: async (request) => (await auth.api.getSession({ headers: request.headers }))?.user.id,
    }),
  )
  return app
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 3000)
  const app = createBetterAuthApp(process.env.BETTER_AUTH_URL ?? `http://127.0.0.1:${port}`)
  serve({ fetch: app.fetch, port, hostname: '127.0.0.1' })
}
