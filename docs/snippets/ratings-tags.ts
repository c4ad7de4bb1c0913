import { createMovieLog } from 'movie-log'

const log = createMovieLog()

// #region snippet
const heat = await log.addMovie({
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
  rating: 9, // 1-10: four and a half stars
  tags: ['festival', 'Prince Charles'],
})

// Every tag required, case and accents ignored; with q, a sort, a range and cursors.
const { movies } = await log.listMovies({ tag: ['FESTIVAL'], sort: '-screenedDate', limit: 50 })

// A merge patch: a value sets, null removes.
await log.updateMovie(heat.id, { rating: 8, tags: null })

const { byRating, tags } = await log.stats({ from: '2024' })
// #endregion snippet
console.log(movies, byRating, tags)
