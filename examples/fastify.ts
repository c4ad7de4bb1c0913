/**
 * movie-log in a Fastify app.
 *
 *   npx tsx examples/fastify.ts   -> http://127.0.0.1:3000/movies
 */
import { pathToFileURL } from 'node:url'
import Fastify, { type FastifyInstance } from 'fastify'
import { createMovieLog, type MovieLog } from 'movie-log'
import { toNodeHandler } from 'movie-log/node'

export function createFastifyApp(log: MovieLog = createMovieLog()): FastifyInstance {
  const app = Fastify()
  const movies = toNodeHandler(log)
  app.register(async (scope) => {
    // In this scope Fastify leaves request bodies unread: the log reads its own, with its own
    // content-type rules and size limit. The rest of the app keeps Fastify's parsers.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null))
    for (const url of ['/movies', '/movies/*']) {
      scope.route({
        method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        url,
        handler: async (request, reply) => {
          // The log writes the answer itself: hijack tells Fastify not to send one.
          reply.hijack()
          await movies(request.raw, reply.raw)
        },
      })
    }
  })
  app.get('/', async () => ({ movies: '/movies' }))
  return app
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await createFastifyApp().listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' })
}
