/** What a failed call means, in a sentence for the person using the page. */
import { FeedUnavailableError, MovieLogHttpError, StoreUnavailableError } from '../../client/index'

export function explain(error: unknown): string {
  if (StoreUnavailableError.is(error)) {
    // The client raises it for a 503 (its cause the problem details) and, after its retries,
    // when no answer came at all (its cause the error fetch threw).
    if (error.cause instanceof Error) {
      return 'Could not reach the server: check the connection, then try again.'
    }
    return 'The log cannot be reached right now. Try again in a moment.'
  }
  if (FeedUnavailableError.is(error)) {
    return 'This server sends no live changes: reload the page to see them.'
  }
  if (error instanceof MovieLogHttpError) {
    return `The server refused: ${error.problem?.detail ?? `HTTP ${error.status}`}`
  }
  return `Something went wrong: ${error instanceof Error ? error.message : String(error)}`
}
