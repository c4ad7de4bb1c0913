/**
 * A plug-in that tsyringe builds: an `@injectable()` class whose scrobble source gets a clock
 * injected. Give the module to the command and its container builds it:
 *
 *   MOVIE_LOG_PLUGINS=./examples/tsyringe-plugin.ts node --import tsx dist/cli.js serve
 *
 * An app that uses tsyringe registers the class in its own container instead
 * (examples/tsyringe-app.ts). Decorators need the `Reflect` metadata polyfill, loaded first.
 */
import 'reflect-metadata'
import type { MovieLogPlugin, ScrobbleSource } from 'movie-log'
import { inject, injectable } from 'tsyringe'

/** When a watch ended: the machine's time, unless the app registers another clock. */
@injectable()
export class Clock {
  now(): number {
    return Date.now()
  }
}

@injectable()
export default class MpvPlugin implements MovieLogPlugin {
  readonly name = 'mpv-di'
  readonly scrobbleSources: ScrobbleSource[]

  constructor(@inject(Clock) clock: Clock) {
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
