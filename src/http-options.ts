import type { MovieLogHttpOptions } from './http'

const POSITIVE_INTEGER_OPTIONS = ['maxBodyBytes', 'maxPageSize', 'maxConcurrentAdds'] as const

/**
 * Refuses options the handlers could only misread, when the handler is made rather than on
 * the first request: a `basePath` with a query or fragment (it could never match a path), and
 * limits that are not positive integers (0 would refuse every body, NaN every page).
 */
export function checkHttpOptions(options: MovieLogHttpOptions): void {
  const { basePath } = options
  if (basePath !== undefined && (typeof basePath !== 'string' || /[?#]/.test(basePath))) {
    throw new TypeError(
      `movie-log: options.basePath must be a path, without '?' or '#', not ${JSON.stringify(basePath)}`,
    )
  }
  for (const name of POSITIVE_INTEGER_OPTIONS) {
    const value = options[name]
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw new TypeError(
        `movie-log: options.${name} must be a positive integer, not ${String(value)}`,
      )
    }
  }
}
