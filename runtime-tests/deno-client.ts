/** The client checks run on Deno against `MOVIE_LOG_URL`; prints what it saw as one JSON line. */
import { checkClient } from './client.ts'

console.log(JSON.stringify(await checkClient(String(Deno.env.get('MOVIE_LOG_URL')))))
