/**
 * One server of the hosts run (`bench/hosts.ts`): BENCH_HOST serves either bare h3 (BENCH_APP
 * `bare`, movies in an array, as bare-h3.mjs) or movie-log on the store URL in BENCH_APP, each
 * mounted the way the guides show for that host, with nothing else around it:
 * - `srvx`: an h3 app served by h3's `serve()` (srvx), the log mounted with `toH3Handler`;
 * - `node`: the same app on node:http through h3's `toNodeHandler`, no wrapper;
 * - `hono`: a Hono app on `@hono/node-server`, the log's `toWebHandler` on its routes (bare h3's
 *   `fetch` for the reference);
 * - `bun` and `deno`: `Bun.serve` and `Deno.serve` with `toWebHandler` (or bare h3's `fetch`).
 * Plain JavaScript, run as it is by Node, Bun and Deno; the built package (`npm run build`).
 */
import { H3, serve } from 'h3'
import { bareH3 } from './bare-h3-app.mjs'

const { BENCH_HOST: host, BENCH_APP: app = 'bare' } = process.env
const port = Number(process.env.PORT)
const hostname = '127.0.0.1'

async function storeOf(url) {
  const scheme = url.slice(0, url.indexOf(':'))
  if (scheme === 'memory') return (await import('movie-log/memory')).memory()
  if (scheme === 'sqlite') return (await import('movie-log/sqlite')).sqlite(url)
  if (scheme.startsWith('redis')) return (await import('movie-log/redis')).redis(url)
  throw new Error(`no store for ${url}`)
}

/** The h3 app of this run: bare, or one mounting the log as the h3 guide does. */
async function h3App(log) {
  if (!log) return bareH3()
  const { toH3Handler } = await import('movie-log/h3')
  return new H3().mount('/movies', toH3Handler(log))
}

/** The web handler of this run: bare h3's `fetch`, or the log's `toWebHandler`. */
async function webHandler(log) {
  if (!log) return bareH3().fetch
  const { toWebHandler } = await import('movie-log/web')
  return toWebHandler(log)
}

const log =
  app === 'bare' ? undefined : (await import('movie-log')).createMovieLog(await storeOf(app))

if (host === 'srvx') {
  serve(await h3App(log), { port, hostname, silent: true })
} else if (host === 'node') {
  const { createServer } = await import('node:http')
  const { toNodeHandler } = await import('h3/node')
  createServer(toNodeHandler(await h3App(log))).listen(port, hostname)
} else if (host === 'hono') {
  const { serve: honoServe } = await import('@hono/node-server')
  const { Hono } = await import('hono')
  const handler = await webHandler(log)
  const hono = new Hono()
  hono.all('/movies', (c) => handler(c.req.raw))
  hono.all('/movies/*', (c) => handler(c.req.raw))
  honoServe({ fetch: hono.fetch, port, hostname })
} else if (host === 'bun') {
  Bun.serve({ fetch: await webHandler(log), port, hostname })
} else if (host === 'deno') {
  Deno.serve({ port, hostname, onListen() {} }, await webHandler(log))
} else {
  throw new Error(`BENCH_HOST: srvx, node, hono, bun or deno, not ${host}`)
}
