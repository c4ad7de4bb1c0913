/**
 * Contract tests generated from the OpenAPI document by Portman and run by newman, against the
 * example server's app on a memory store, reached over real HTTP: `npm run contract`.
 *
 * Every operation is called and its answer checked against the document (status, headers,
 * content type, body schema), then fuzzed requests (a required field missing, numbers and lengths
 * past their bounds, a limit below 1) must be refused with 400 and a problem. The document is
 * the one the server serves at /movies/openapi.json. Exits non-zero on any failure.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { toNodeHandler } from 'h3/node'
import { createMovieLog } from '../../src/index'
import { createApp } from '../../src/server/server'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// A catalog of one entry, so GET /movies/catalog answers its candidates as the document says.
const heat = {
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
  title: 'Heat',
  originalTitle: 'Heat',
  year: 1995,
  runtimeMinutes: 170,
}
const catalog = { find: async () => [heat] }
const server = createServer(toNodeHandler(createApp(createMovieLog('memory://'), { catalog })))
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
// Portman writes its working files into the folder it runs in: a temporary one.
const folder = mkdtempSync(join(tmpdir(), 'movie-log-contract-'))
try {
  const document = join(folder, 'openapi.json')
  writeFileSync(document, await (await fetch(`${origin}/movies/openapi.json`)).text())
  // Asynchronously: the server answering newman runs in this process.
  const config = here('portman-config.json')
  const portman = spawn(
    here('../../node_modules/.bin/portman'),
    ['--local', document, '--baseUrl', origin, '--portmanConfigFile', config, '--runNewman'].concat(
      ['--output', join(folder, 'collection.json'), '--syncPostman', 'false'],
    ),
    { cwd: folder, stdio: 'inherit' },
  )
  const [code] = await once(portman, 'exit')
  process.exitCode = code === 0 ? 0 : 1
} finally {
  server.closeAllConnections()
  server.close()
  rmSync(folder, { recursive: true, force: true })
}
