/**
 * movie-log as the issue's harness measured it: an h3 v2 app mounting the BUILT package
 * (dist, through its `movie-log/h3` export) as a user's app does, run by plain node (no tsx,
 * no request log). The store comes from MOVIE_LOG_STORE (memory://, sqlite://PATH, redis://,
 * postgres://). Served as the HTTP guide says for node:http: h3's toNodeHandler, nothing around
 * it (POST bodies are read from Node all the same). Plain JavaScript
 * so that node runs it as it is; `npm run build` first.
 */
import { createServer } from 'node:http'
import { H3 } from 'h3'
import { toNodeHandler } from 'h3/node'
import { createMovieLog } from 'movie-log'
import { toH3Handler } from 'movie-log/h3'

async function storeOf(url) {
  const scheme = url.slice(0, url.indexOf(':'))
  if (scheme === 'memory') return (await import('movie-log/memory')).memory()
  if (scheme === 'sqlite') return (await import('movie-log/sqlite')).sqlite(url)
  if (scheme.startsWith('redis')) return (await import('movie-log/redis')).redis(url)
  if (scheme.startsWith('postgres')) return (await import('movie-log/postgres')).postgres(url)
  throw new Error(`no store for ${url}`)
}

const log = createMovieLog(await storeOf(process.env.MOVIE_LOG_STORE ?? 'memory://'))
const app = new H3().mount('/movies', toH3Handler(log))
createServer(toNodeHandler(app)).listen(Number(process.env.PORT), '127.0.0.1')
