// #region snippet
import { createMovieLog } from 'movie-log'

const log = createMovieLog('sqlite://./movies.sqlite') // relative to the working directory
createMovieLog('sqlite:///srv/movie-log/movies.sqlite') // an absolute path
createMovieLog('postgres://user:password@db.internal:5432/movies') // or postgresql://
createMovieLog('redis://:password@cache.internal:6379/0') // rediss:// for TLS
createMovieLog('redis+cluster://:password@10.0.0.1:7000,10.0.0.2:7000') // rediss+cluster:// for TLS
createMovieLog('memory://') // this process only; createMovieLog() is the same
await log.close() // releases what the log opened (a file, a pool, a connection)
// #endregion snippet
