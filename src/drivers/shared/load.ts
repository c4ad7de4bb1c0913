import { UnsupportedStoreError } from '../../core/errors'
import type { StoreAdapter } from '../../core/store-adapter'

/** The drivers movie-log ships as subpaths of its own (`movie-log/sqlite`), by module name. */
export type DriverName = 'sqlite' | 'postgres' | 'redis'

/**
 * Loads the subpath of a driver movie-log ships and returns its factory (`sqlite`, `redis`...).
 * The import names the package itself by a string no bundler follows, so an app's bundle holds
 * only the drivers it imports; where the runtime cannot load one (a Worker has no file system
 * and no sockets for it), the store is refused with an `UnsupportedStoreError`.
 */
export async function loadDriver(
  name: DriverName,
): Promise<(target: string | object) => StoreAdapter> {
  const specifier: string = `movie-log/${name}`
  let loaded: Record<string, unknown>
  try {
    loaded = await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)
  } catch (error) {
    throw new UnsupportedStoreError(
      `This runtime cannot load ${specifier}, which ${name} store URLs use: import its factory ` +
        `and give it to createMovieLog (import { ${name} } from '${specifier}'), or use a store ` +
        'this runtime has (memory, or d1(env.DB) on Cloudflare Workers)',
      { cause: error },
    )
  }
  return loaded[name] as (target: string | object) => StoreAdapter
}
