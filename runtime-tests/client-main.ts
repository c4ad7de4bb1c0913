/** The client checks run on Bun or Node against `MOVIE_LOG_URL`; prints what it saw as one JSON line. */
import { checkClient } from './client.ts'

console.log(JSON.stringify(await checkClient(String(process.env.MOVIE_LOG_URL))))
