/**
 * The test app on Node's own server through `movie-log/node` (node:http): `MOVIE_LOG_STORE`
 * (default memory), `PORT` (0: any free port).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeHandler } from 'movie-log/node'
import { testHandlers } from './app.ts'

const handlerFor = testHandlers(process.env.MOVIE_LOG_STORE ?? 'memory://', toNodeHandler)
const server = createServer((req, res) => {
  const options = req.headers['x-test-options']
  handlerFor(Array.isArray(options) ? options[0] : options)(req, res)
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  // The test reads the origin from this line.
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`)
})
