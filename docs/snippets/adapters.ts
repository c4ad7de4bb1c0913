import { createMovieLog } from 'movie-log'

const log = createMovieLog()

// #region snippet
// Any web-standard host: Hono, Next.js, Bun, Deno, Workers, srvx, Node through srvx
import { toWebHandler } from 'movie-log/web'

const handler = toWebHandler(log) // (request: Request) => Promise<Response>

// h3 v2
import { H3 } from 'h3'
import { toH3Handler } from 'movie-log/h3'

const app = new H3().mount('/movies', toH3Handler(log))

// node:http, Express, Connect-style stacks (Fastify: see Mounting)
import express from 'express'
import { toNodeHandler } from 'movie-log/node'

express().use('/movies', toNodeHandler(log)) // (req, res, next) => Promise<void>
// #endregion snippet
console.log(handler, app)
