/** The baseline: bare h3 v2 serving movies from a plain array, on node:http. */
import { createServer } from 'node:http'
import { toNodeHandler } from 'h3/node'
import { bareH3 } from './bare-h3-app.mjs'

createServer(toNodeHandler(bareH3())).listen(Number(process.env.PORT), '127.0.0.1')
