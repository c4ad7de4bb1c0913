import { createMovieLog } from 'movie-log'
import { openCatalog } from 'movie-log/sqlite'
import { toWebHandler } from 'movie-log/web'

const log = createMovieLog('sqlite://./data/movies.sqlite')
// #region snippet
const catalog = openCatalog('./data/movies.sqlite.catalog.sqlite')
const handler = toWebHandler(log, { catalog })
// GET /movies/catalog?q=amelie&year=2001, and scrobbles without an IMDb id matched through it
// #endregion snippet
export default handler
