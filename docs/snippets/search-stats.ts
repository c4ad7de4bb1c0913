import { createMovieLog } from 'movie-log'

const log = createMovieLog()

// #region snippet
// "When did I last see Heat?": every word a word, the last one a prefix, accents ignored.
const { movies } = await log.listMovies({ q: 'heat', sort: '-screenedDate', limit: 1 })

// "How many films this year, on which days, at what time?"
const year = await log.stats({ from: '2024', to: '2024' })
console.log(year.total, year.byWeekday, year.byHour, year.rewatched)
// #endregion snippet
console.log(movies)
