/**
 * In workerd: the client checks against the test app bound as the service `APP` (`/`), and what
 * the stores a Worker has no client for answer (`/unsupported`); each answers JSON.
 */
import { createMovieLog } from 'movie-log'
import { checkClient } from './client.ts'

interface Env {
  APP: { fetch: typeof fetch }
}

// Stores whose clients need TCP sockets or files of Node's: a Worker cannot open them.
const UNSUPPORTED = [
  'sqlite://./movies.sqlite',
  'postgres://movie-log@127.0.0.1/movies',
  'redis://127.0.0.1:6379',
]

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname === '/unsupported') {
      const answers = []
      for (const url of UNSUPPORTED) {
        const error = await createMovieLog(url)
          .listMovies()
          .then(() => ({ name: 'none', message: 'it opened' }))
          .catch((error: Error) => ({ name: error.name, message: error.message }))
        answers.push({ url, ...error })
      }
      return Response.json(answers)
    }
    const fetchApp: typeof fetch = (input, init) => env.APP.fetch(input, init)
    return Response.json(await checkClient('http://app/movies', { fetch: fetchApp }))
  },
}
