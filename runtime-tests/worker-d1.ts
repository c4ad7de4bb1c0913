/** The test app as a Cloudflare Worker (workerd, `nodejs_compat`), on its D1 database `DB`. */
import { d1 } from 'movie-log/d1'
import { createTestApp } from './app.ts'

interface Env {
  DB: Parameters<typeof d1>[0]
}

let app: ReturnType<typeof createTestApp> | undefined

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    app ??= createTestApp(d1(env.DB))
    return app(request)
  },
}
