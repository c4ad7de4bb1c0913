/**
 * movie-log as a Cloudflare Worker: a diary per person on one D1 database, the log at /movies
 * and the diary page at /. Whose diary a request reads is the e-mail address Cloudflare Access
 * puts in `Cf-Access-Authenticated-User-Email` once it has signed the person in (put the Worker
 * behind Access: without the header, 401).
 *
 *   npx wrangler d1 create movie-log   (its id into wrangler.toml)
 *   npx wrangler deploy
 */
import { createMovieLogs } from 'movie-log'
import { d1 } from 'movie-log/d1'
import { toPageHandler } from 'movie-log/page'
import { toWebHandler } from 'movie-log/web'

interface Env {
  DB: Parameters<typeof d1>[0]
}

type Handler = (request: Request) => Promise<Response>
let handlers: { log: Handler; page: Handler } | undefined

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    // Made on the first request: the D1 binding comes with it.
    handlers ??= {
      log: toWebHandler(createMovieLogs(d1(env.DB)), {
        owner: (request) => request.headers.get('cf-access-authenticated-user-email') ?? undefined,
      }),
      page: toPageHandler({ api: '/movies' }),
    }
    const { pathname } = new URL(request.url)
    const toLog = pathname === '/movies' || pathname.startsWith('/movies/')
    return (toLog ? handlers.log : handlers.page)(request)
  },
}
