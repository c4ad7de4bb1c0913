import { MovieLogError } from './errors'

/**
 * `updateMovie` or `deleteMovie` without `ifMatch` named a movie the log does not have
 * (HTTP 404).
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (MovieNotFoundError.is(error)) console.log('already gone:', error.id)
 * }
 * ```
 */
export class MovieNotFoundError extends MovieLogError {
  override name = 'MovieNotFoundError'
  protected static override readonly names = ['MovieNotFoundError']
  readonly id: string

  constructor(id: string) {
    super('MOVIE_NOT_FOUND', 'There is no movie with this id')
    this.id = id
  }
}

/**
 * The movie is no longer the version `ifMatch` named (someone changed or deleted it since it
 * was read), so nothing was changed (HTTP 412). Read it again and decide.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (PreconditionFailedError.is(error)) showLatest(await log.getMovie(id))
 * }
 * ```
 */
export class PreconditionFailedError extends MovieLogError {
  override name = 'PreconditionFailedError'
  protected static override readonly names = ['PreconditionFailedError']
  readonly id: string

  constructor(id: string) {
    super(
      'PRECONDITION_FAILED',
      'The movie was changed or deleted since that version was read; nothing was changed',
    )
    this.id = id
  }
}
