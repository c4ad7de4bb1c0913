/** The test app as a Cloudflare Worker (workerd, `nodejs_compat`), on memory. */
import { createTestApp } from './app.ts'

let app: ReturnType<typeof createTestApp> | undefined

export default {
  fetch(request: Request): Promise<Response> {
    // Made on the first request: a Worker may do no I/O (nor make random ids) at load.
    app ??= createTestApp('memory://')
    return app(request)
  },
}
