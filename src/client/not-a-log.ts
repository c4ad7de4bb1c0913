/** Telling a caller that the URL its client was given is no movie log: a server's root, a typo. */
import { MovieLogHttpError, type ProblemDetails } from './errors'

/** What shows that a URL is no log: the answer's status, and its problem or body when read. */
export interface NotALogAnswer {
  status: number
  problem?: ProblemDetails
  /** The JSON it answered a list with, when it was JSON (`undefined` when none was read). */
  body?: unknown
}

/**
 * The error for an answer that shows `base` is no movie log, naming `base` and what it answered.
 * Where `base` answers JSON that points at a log, as a movie-log server's root does (`{"movies":
 * "/movies"}`), the error names that log's URL too. It is not followed: a client that quietly
 * used another URL than the one it was given would hide the mistake, and send writes where its
 * caller never said.
 */
export async function notALogError(
  base: string,
  answer: NotALogAnswer,
  fetchJson: (url: string) => Promise<unknown>,
): Promise<MovieLogHttpError> {
  let log: string | undefined
  try {
    const body = 'body' in answer ? answer.body : await fetchJson(base)
    const pointer = (body as { movies?: unknown } | null)?.movies
    if (typeof pointer === 'string') log = new URL(pointer, `${base}/`).href
  } catch {
    // No pointer to name: the error names `base` alone.
  }
  return new MovieLogHttpError(
    answer.status,
    answer.problem,
    `movie-log: ${base} is not a movie log (it answered ${answer.status})${log ? `; its server's log is at ${log}` : ''}`,
  )
}
