/** The test app on Bun.serve: `MOVIE_LOG_STORE` (default memory), `PORT` (0: any free port). */
import { createTestApp } from './app.ts'

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  fetch: createTestApp(process.env.MOVIE_LOG_STORE ?? 'memory://'),
})
// The test reads the origin from this line.
console.log(`listening ${server.url.origin}`)
