/**
 * The plug-in registry: the one way an app adds to what movie-log ships a store (a URL scheme
 * and its driver), a media server's webhook (a scrobble source) or another service's CSV export
 * (an import format). Each kind is a `PluginPoint` kept by its user: store URLs, the scrobble
 * route, the import command.
 */
import { type ImportFormat, importFormats } from './formats/import-formats'
import { type ScrobbleSource, scrobbleSources } from './formats/scrobble-sources'
import { type StoreOpener, storeOpeners } from './store-urls'

/**
 * A plug-in: a name, and what it adds at each plug-in point. One added later answers before
 * what ships under the same scheme or name.
 *
 * @example
 * ```ts
 * const plugin: MovieLogPlugin = { name: 'mpv', scrobbleSources: [mpvSource] }
 * ```
 */
export interface MovieLogPlugin {
  /** Who adds these, in errors. */
  name: string
  /** Drivers for store URLs of their schemes (`createMovieLog('mystore://…')`). */
  storeOpeners?: readonly StoreOpener[]
  /** Webhook formats, each served at `POST {base}/scrobble/{name}`. */
  scrobbleSources?: readonly ScrobbleSource[]
  /** CSV exports for `movie-log import --format NAME` (and `auto`). */
  importFormats?: readonly ImportFormat[]
}

const POINTS = ['storeOpeners', 'scrobbleSources', 'importFormats'] as const

/**
 * Types a plug-in in a file of its own, for `registerPlugin` or `movie-log serve --plugin FILE`
 * (its default export). It returns `plugin` as it is.
 *
 * @example
 * ```ts
 * export default definePlugin({ name: 'mpv', scrobbleSources: [mpvSource] })
 * ```
 */
export const definePlugin = (plugin: MovieLogPlugin): MovieLogPlugin => plugin

/**
 * Adds a plug-in's parts, for every log, handler and import made after. A part without a valid
 * name is refused (a `TypeError` naming it) before any part is added. Returns a function that
 * takes the parts out again (what ships under their names answers again).
 *
 * @example
 * ```ts
 * import { registerPlugin } from 'movie-log'
 *
 * const unregister = registerPlugin({ name: 'mpv', scrobbleSources: [mpvSource] })
 * ```
 */
export function registerPlugin(plugin: MovieLogPlugin): () => void {
  if (typeof plugin !== 'object' || plugin === null || typeof plugin.name !== 'string') {
    throw new TypeError('A movie-log plug-in is an object with a name.')
  }
  const unknown = Object.keys(plugin).filter(
    (key) => key !== 'name' && !(POINTS as readonly string[]).includes(key),
  )
  if (unknown.length > 0) {
    throw new TypeError(
      `Plug-in '${plugin.name}': ${unknown.map((key) => `'${key}'`).join(', ')} is no plug-in point (${POINTS.join(', ')}).`,
    )
  }
  for (const point of POINTS) {
    if (plugin[point] !== undefined && !Array.isArray(plugin[point])) {
      throw new TypeError(`Plug-in '${plugin.name}': '${point}' must be an array.`)
    }
  }
  // Each point checks its parts; copies are checked first, so a bad part adds nothing.
  const checked = {
    storeOpeners: storeOpeners.checked(plugin.storeOpeners ?? [], plugin.name),
    scrobbleSources: scrobbleSources.checked(plugin.scrobbleSources ?? [], plugin.name),
    importFormats: importFormats.checked(plugin.importFormats ?? [], plugin.name),
  }
  const removals = [
    ...checked.storeOpeners.map((opener) => storeOpeners.register(opener)),
    ...checked.scrobbleSources.map((source) => scrobbleSources.register(source)),
    ...checked.importFormats.map((format) => importFormats.register(format)),
  ]
  return () => {
    for (const remove of removals) remove()
  }
}

/**
 * The token under which an app that uses tsyringe registers movie-log plug-ins in its own
 * container, for `registerPluginsFrom`.
 */
export const MOVIE_LOG_PLUGIN = 'movie-log:plugin'

/**
 * What `registerPluginsFrom` needs of a DI container: tsyringe's `DependencyContainer` has it.
 * movie-log loads no container itself: tsyringe needs a `Reflect` metadata polyfill on the
 * global `Reflect`, which only an app that asked for decorators should install.
 */
export interface PluginContainer {
  isRegistered(token: string, recursive?: boolean): boolean
  resolveAll<T>(token: string): T[]
}

/**
 * Adds every plug-in an app registered in its tsyringe container under `MOVIE_LOG_PLUGIN`
 * (values, factories or `@injectable()` classes, resolved with their dependencies), as
 * `registerPlugin` does; none registered, it does nothing.
 *
 * @example
 * ```ts
 * import 'reflect-metadata'
 * import { container } from 'tsyringe'
 * import { MOVIE_LOG_PLUGIN, registerPluginsFrom } from 'movie-log'
 *
 * container.register(MOVIE_LOG_PLUGIN, { useClass: MpvPlugin })
 * registerPluginsFrom(container)
 * ```
 */
export function registerPluginsFrom(container: PluginContainer): void {
  if (!container.isRegistered(MOVIE_LOG_PLUGIN, true)) return
  for (const plugin of container.resolveAll<MovieLogPlugin>(MOVIE_LOG_PLUGIN)) {
    registerPlugin(plugin)
  }
}

export type { ImportFormat } from './formats/import-formats'
export type { Scrobble, Watched, WatchTime } from './formats/scrobble'
export type { ScrobbleSource } from './formats/scrobble-sources'
