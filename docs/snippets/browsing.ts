import { createMovieLog } from 'movie-log'

const log = createMovieLog()

// #region snippet
// What did I watch in 2024, latest first? 50 at a time.
const page = await log.listMovies({ sort: '-screenedDate', from: '2024', to: '2024', limit: 50 })
const next = await log.listMovies({ limit: 50, cursor: page.nextCursor }) // same sort and range
// #endregion snippet
console.log(next)
