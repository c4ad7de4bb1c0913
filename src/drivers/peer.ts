import { UnsupportedStoreError } from '../core/errors'

/**
 * Loads the database client a store URL needs, an optional peer dependency of movie-log: when
 * it is not installed, says which package the URL's scheme needs.
 */
export async function importPeer<T>(
  name: string,
  scheme: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load()
  } catch (error) {
    const { code } = error as { code?: unknown }
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      // The import's own error stays the cause: a missing package is not a wrong URL.
      throw Object.assign(
        new UnsupportedStoreError(
          `A ${scheme} store needs the ${name} package: install it beside movie-log (npm install ${name})`,
        ),
        { cause: error },
      )
    }
    throw error
  }
}
