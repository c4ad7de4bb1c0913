import type { NewMovie } from 'movie-log'

declare const input: NewMovie
declare function auth(request: Request): Promise<{ userId: string } | undefined>

// #region snippet
import { createMovieLogs } from 'movie-log'
import { toWebHandler } from 'movie-log/web'

const logs = createMovieLogs('postgres://app@db/app')
// Whose diary a request reaches comes from your own authentication; undefined is a 401.
const handler = toWebHandler(logs, { owner: async (request) => (await auth(request))?.userId })

await logs.of('alice').addMovie(input) // the same MovieLog interface, per owner
await logs.drop('bob') // an account deleted: its diary goes, nothing else
for await (const owner of logs.owners()) console.log(owner) // every owner with a movie
// #endregion snippet
console.log(handler)
