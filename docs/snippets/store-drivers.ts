// #region snippet
import { createMovieLog, createMovieLogs } from 'movie-log'
import { memory } from 'movie-log/memory'
import { postgres } from 'movie-log/postgres'
import { redis } from 'movie-log/redis'
import { sqlite } from 'movie-log/sqlite'

const log = createMovieLog(sqlite('./data/movies.sqlite')) // a path, or sqlite://PATH
createMovieLog(postgres('postgres://user:password@db.internal:5432/movies')) // or a pg Pool
createMovieLogs(redis('redis://:password@cache.internal:6379/0')) // or a node-redis client
createMovieLog(memory()) // this process only; createMovieLog() is the same
await log.close() // releases what the log opened (a file, a pool, a connection)
// #endregion snippet
