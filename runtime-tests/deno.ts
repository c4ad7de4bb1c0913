/** The test app on Deno.serve: `MOVIE_LOG_STORE` (default memory), `PORT` (0: any free port). */
import { createTestApp } from './app.ts'

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 0),
    // The test reads the origin from this line.
    onListen: ({ hostname, port }) => console.log(`listening http://${hostname}:${port}`),
  },
  createTestApp(Deno.env.get('MOVIE_LOG_STORE') ?? 'memory://'),
)
