// #region snippet
import { createMovieLog } from 'movie-log'
import { type D1DatabaseLike, d1 } from 'movie-log/d1'
import { toWebHandler } from 'movie-log/web'

export default {
  fetch(request: Request, env: { DB: D1DatabaseLike }) {
    // Tables are created in the database on the log's first call (CREATE … IF NOT EXISTS).
    const log = createMovieLog(d1(env.DB))
    return toWebHandler(log, { basePath: '/movies' })(request)
  },
}
// #endregion snippet
