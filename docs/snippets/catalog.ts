import { openCatalog } from 'movie-log/sqlite'

// #region snippet
const catalog = openCatalog('./data/movies.sqlite.catalog.sqlite')
const [best] = await catalog.find({ title: 'The Matrix', year: 1999 })
// { imdbLink: 'https://www.imdb.com/title/tt0133093/', title: 'The Matrix', year: 1999, ... }
// #endregion snippet
console.log(best)
await catalog.close()
