/** The `--plugin FILE` option of `serve` and `import`: an app's plug-in, loaded in the command. */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { MOVIE_LOG_PLUGIN, type MovieLogPlugin, registerPlugin } from '../plugins'
import { UsageError } from './exit'

export const pluginArg = {
  type: 'string',
  valueHint: 'FILE',
  description:
    'a module whose default export is a movie-log plug-in (definePlugin) or a class tsyringe builds: its store URLs, scrobble sources and import formats; comma-separated for several (default: MOVIE_LOG_PLUGINS)',
} as const

/**
 * Loads and registers each plug-in module `--plugin` (else MOVIE_LOG_PLUGINS, as the server's
 * other settings) names: a path, or a package name. A default export that is a class is built
 * by the command's tsyringe container, its `@inject`ed dependencies with it. A module that
 * cannot be loaded, or whose default export is not a plug-in, is a usage error.
 */
export async function loadPlugins(option: string | undefined): Promise<void> {
  const named = option ?? process.env.MOVIE_LOG_PLUGINS ?? ''
  const files = named
    .split(',')
    .map((file) => file.trim())
    .filter((file) => file !== '')
  // Decorated plug-in classes read their metadata through Reflect: installed before any loads.
  if (files.length > 0) await import('reflect-metadata')
  for (const file of files) {
    // A path is taken from the working directory; anything else is a package's name.
    const specifier = /^\.{0,2}[\\/]/.test(file) ? pathToFileURL(resolve(file)).href : file
    const loaded = await import(specifier).catch((error: unknown) => {
      throw new UsageError(`--plugin: cannot load ${file}: ${(error as Error).message}`)
    })
    try {
      registerPlugin(await built(loaded.default))
    } catch (error) {
      throw new UsageError(`--plugin: ${file}: ${(error as Error).message}`)
    }
  }
}

/** A plug-in as exported, or the one the command's container builds of an exported class. */
async function built(exported: unknown): Promise<MovieLogPlugin> {
  if (typeof exported !== 'function') return exported as MovieLogPlugin
  const { container } = await import('tsyringe')
  // A scope per module: what one registers under the token is not another's.
  const scope = container.createChildContainer()
  scope.register(MOVIE_LOG_PLUGIN, { useClass: exported as new () => MovieLogPlugin })
  return scope.resolve<MovieLogPlugin>(MOVIE_LOG_PLUGIN)
}
