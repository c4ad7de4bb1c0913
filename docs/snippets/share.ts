declare const userIdOf: (request: Request) => string | undefined

// #region snippet
import { H3 } from 'h3'
import { createMovieLogs } from 'movie-log'
import { toH3Handler } from 'movie-log/h3'
import { toPageHandler } from 'movie-log/page'

const logs = createMovieLogs('sqlite://./data/movies.sqlite')

// Alice shares her diary: a new link each time, the one before revoked at once.
const link = await logs.of('alice').share({ notes: false, index: false })
console.log(link.path) // '/s/3q2…': below where the page is served
await logs.of('alice').shared() // the link, or undefined while sharing is off

// The links' listing and feeds come with the log, at /movies/s/<token>/movies, /rss, /ics;
// the read-only page with the page, at /diary/s/<token>, given the logs whose links it opens.
const app = new H3()
  .mount('/movies', toH3Handler(logs, { owner: userIdOf }))
  .mount('/diary', toPageHandler({ api: '/movies', basePath: '/diary', shares: logs }))

await logs.of('alice').unshare() // off: the link opens nothing
// #endregion snippet
console.log(app)
