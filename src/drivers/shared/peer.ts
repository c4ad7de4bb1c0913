import { UnsupportedStoreError } from '../../core/errors'

/**
 * The package an import could not find (Node's `ERR_MODULE_NOT_FOUND`, CommonJS's
 * `MODULE_NOT_FOUND`), else `undefined`: the one
 * way movie-log tells an optional package that is not installed from any other failed import.
 * `expected`, the package the import asked for, answers when the message names none.
 *
 * @example
 * ```ts
 * missingPackageOf(await import('h3').catch((error) => error)) // 'h3' when it is not installed
 * ```
 */
export function missingPackageOf(error: unknown, expected?: string): string | undefined {
  if (!(error instanceof Error)) return undefined
  const { code } = error as { code?: unknown }
  const named = /Cannot find (?:package|module) '([^']+)'/.exec(error.message)?.[1]
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined
  // A bare name is the package ('@keyv/redis/x' is @keyv/redis); a path (a file missing inside
  // an install) names none, and the package asked for stands for it.
  const name = named && !/^[./]/.test(named) ? named.match(/^(@[^/]+\/)?[^/]+/)?.[0] : undefined
  return name ?? expected
}

/**
 * Loads the database client a store URL needs, an optional peer dependency of movie-log: when
 * it is not installed, raises an `UnsupportedStoreError` (not retryable: the machine lacks it)
 * that names the package and how to install it, with the package in `missingPackage` and the
 * import's own error as `cause`. Every driver loads its client through this.
 *
 * @example
 * ```ts
 * const { default: pg } = await importPeer('pg', 'postgres://', () => import('pg'))
 * ```
 */
export async function importPeer<T>(
  name: string,
  scheme: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load()
  } catch (error) {
    // Another package missing below this one (a client's own dependency) is named as such.
    const missing = missingPackageOf(error, name)
    if (missing === undefined) throw error
    throw new UnsupportedStoreError(
      `A ${scheme} store needs the ${missing} package: install it beside movie-log (npm install ${missing})`,
      { cause: error, missingPackage: missing },
    )
  }
}
