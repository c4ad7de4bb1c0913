/**
 * The client checks run in workerd, against the test app bound as the service `APP`; answers
 * what it saw as JSON.
 */
import { checkClient } from './client.ts'

interface Env {
  APP: { fetch: typeof fetch }
}

export default {
  async fetch(_request: Request, env: Env): Promise<Response> {
    const fetchApp: typeof fetch = (input, init) => env.APP.fetch(input, init)
    return Response.json(await checkClient('http://app/movies', { fetch: fetchApp }))
  },
}
