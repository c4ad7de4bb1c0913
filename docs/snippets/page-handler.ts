// #region snippet
import { H3 } from 'h3'
import { createMovieLog } from 'movie-log'
import { toH3Handler } from 'movie-log/h3'
import { toPageHandler } from 'movie-log/page'

const app = new H3()
  .mount('/movies', toH3Handler(createMovieLog()))
  .mount('/diary', toPageHandler({ api: '/movies', basePath: '/diary' }))
// The diary at /diary/ (examples/h3.ts, run by test/page-handler.test.ts)
// #endregion snippet
console.log(app)
