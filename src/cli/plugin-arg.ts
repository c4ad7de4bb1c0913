/** The `--plugin FILE` option of `serve` and `import`: an app's plug-in, loaded in the command. */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { registerPlugin } from '../plugins'
import { UsageError } from './exit'

export const pluginArg = {
  type: 'string',
  valueHint: 'FILE',
  description:
    'a module whose default export is a movie-log plug-in (definePlugin): its store URLs, scrobble sources and import formats; comma-separated for several (default: MOVIE_LOG_PLUGINS)',
} as const

/**
 * Loads and registers each plug-in module `--plugin` (else MOVIE_LOG_PLUGINS, as the server's
 * other settings) names: a path, or a package name. A module that cannot be loaded, or whose
 * default export is not a plug-in, is a usage error.
 */
export async function loadPlugins(option: string | undefined): Promise<void> {
  const named = option ?? process.env.MOVIE_LOG_PLUGINS ?? ''
  const files = named
    .split(',')
    .map((file) => file.trim())
    .filter((file) => file !== '')
  for (const file of files) {
    // A path is taken from the working directory; anything else is a package's name.
    const specifier = /^\.{0,2}[\\/]/.test(file) ? pathToFileURL(resolve(file)).href : file
    const loaded = await import(specifier).catch((error: unknown) => {
      throw new UsageError(`--plugin: cannot load ${file}: ${(error as Error).message}`)
    })
    try {
      registerPlugin(loaded.default)
    } catch (error) {
      throw new UsageError(`--plugin: ${file}: ${(error as Error).message}`)
    }
  }
}
