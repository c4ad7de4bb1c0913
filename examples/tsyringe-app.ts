/**
 * An app that uses tsyringe registers movie-log's plug-ins in its own container: here the
 * `@injectable()` plug-in of examples/tsyringe-plugin.ts, given the app's own clock. The app
 * asked for decorators, so it loads the `Reflect` metadata polyfill itself, first.
 *
 *   npx tsx examples/tsyringe-app.ts    prints what the mpv hook logged
 */
import 'reflect-metadata'
import { createMovieLog, MOVIE_LOG_PLUGIN, registerPluginsFrom } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { container } from 'tsyringe'
import MpvPlugin, { Clock } from './tsyringe-plugin'

// The app's clock, which the container injects in place of the plug-in's default.
container.register(Clock, { useValue: { now: () => Date.UTC(2024, 4, 1, 18, 30) } })
container.register(MOVIE_LOG_PLUGIN, { useClass: MpvPlugin })
registerPluginsFrom(container)

const handler = toWebHandler(createMovieLog(), { timeZone: 'UTC' })
const hook = { event: 'end-file', imdb: 'tt0113277', title: 'Heat', year: 1995 }
const logged = await handler(
  new Request('http://localhost/scrobble/mpv', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(hook),
  }),
)
console.log(logged.status, JSON.stringify(await logged.json()))
