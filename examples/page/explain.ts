/** What a failed call means, in a sentence for the person using the page. */
import { MovieLogHttpError, StoreUnavailableError } from 'movie-log/client'

export function explain(error: unknown): string {
  if (StoreUnavailableError.is(error)) {
    return 'The log cannot be reached right now. Try again in a moment.'
  }
  if (error instanceof MovieLogHttpError) {
    return `The server refused: ${error.problem?.detail ?? `HTTP ${error.status}`}`
  }
  return `Something went wrong: ${error instanceof Error ? error.message : String(error)}`
}
