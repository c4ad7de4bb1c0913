/**
 * An app that uses tsyringe registers movie-log's plug-ins in its own container: here an
 * `@injectable()` plug-in whose scrobble source gets the app's clock injected. The app asked for
 * decorators, so it loads the `Reflect` metadata polyfill itself, first; movie-log loads none.
 *
 *   npx tsx examples/tsyringe-plugin.ts    prints what the mpv hook logged
 */
import 'reflect-metadata'
import {
  createMovieLog,
  MOVIE_LOG_PLUGIN,
  type MovieLogPlugin,
  registerPluginsFrom,
  type ScrobbleSource,
} from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { container, inject, injectable } from 'tsyringe'

/** The app's own service, which the plug-in depends on. */
const CLOCK = 'app:clock'
container.register(CLOCK, { useValue: { now: () => Date.UTC(2024, 4, 1, 18, 30) } })

@injectable()
class MpvPlugin implements MovieLogPlugin {
  readonly name = 'mpv-di'
  readonly scrobbleSources: ScrobbleSource[]

  constructor(@inject(CLOCK) clock: { now(): number }) {
    this.scrobbleSources = [
      {
        name: 'mpv',
        label: 'mpv',
        read: (payload) => {
          const hook = payload as {
            event?: unknown
            imdb?: unknown
            title?: unknown
            year?: unknown
          }
          if (hook.event !== 'end-file') return { kind: 'ignored' }
          return {
            kind: 'watched',
            imdbId: String(hook.imdb),
            title: hook.title,
            releaseYear: hook.year,
            watchedAt: { instant: clock.now() },
            notes: 'Scrobbled from mpv',
          }
        },
      },
    ]
  }
}

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
