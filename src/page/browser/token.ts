/**
 * The client the page calls through, and the token prompt: when the server answers 401 (the
 * example server's MOVIE_LOG_TOKEN guards writes, and reads too when private), the page asks
 * for the token, keeps it for this tab (sessionStorage), and tries the call again. The token
 * also says whose things the page keeps (`person`): another person's token reloads the page.
 */
import { createMovieLogClient, type MovieLog, MovieLogHttpError } from '../../client/index'
import { byId } from './dom'

const KEY = 'movie-log-token'

/** The user closed the token prompt: the call was not made. */
export class Cancelled extends Error {
  override name = 'Cancelled'
}

export interface Session {
  /**
   * Runs `call`, asking for a token (`why` says what for) as long as the server refuses it;
   * `pinned`, never: a refusal is thrown (an add waiting goes with its token or not at all).
   */
  run<T>(why: string, call: (log: MovieLog) => Promise<T>, pinned?: boolean): Promise<T>
  /** Whose things the page keeps: the SHA-256 of the token (base64), or `anyone` without one. */
  person(): Promise<string>
  /** The token this tab holds, for the person's own webhook addresses. */
  token(): string | null
}

/** `changed`: the first token given, or one never accepted, replaced without a reload. */
export function createSession(logUrl: string, changed: () => void): Session {
  // Two retries: what the network loses beyond them, the page keeps (adds wait in the outbox, the
  // diary last seen is shown) rather than keep the person waiting.
  const clientFor = (token: string | null) =>
    createMovieLogClient(logUrl, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      retries: 2,
    })
  let token = sessionStorage.getItem(KEY)
  let log = clientFor(token)
  // The token a call last succeeded with: the page may show or keep that person's things.
  let accepted: string | null | undefined
  return {
    async run(why, call, pinned) {
      for (let refused = false; ; refused = true) {
        const used = token
        try {
          const result = await call(log)
          accepted = used
          return result
        } catch (error) {
          if (
            pinned ||
            !(error instanceof MovieLogHttpError) ||
            ![401, 403].includes(error.status)
          ) {
            throw error
          }
          const given = await askForToken(why, refused && token !== null)
          if (given === token) continue
          sessionStorage.setItem(KEY, given)
          // Another person: nothing of the one before stays on the page (its list, its feed,
          // its edits open, an add of theirs in flight: that one waits for their token).
          if (token && accepted === token) {
            location.reload()
            return new Promise<never>(() => {})
          }
          token = given
          log = clientFor(token)
          changed()
        }
      }
    },
    token: () => token,
    // Base64 of the SHA-256 of the token: never the token itself.
    person: async () =>
      token
        ? btoa(
            String.fromCharCode(
              ...new Uint8Array(
                await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)),
              ),
            ),
          )
        : 'anyone',
  }
}

function askForToken(why: string, wrong: boolean): Promise<string> {
  const dialog = byId<HTMLDialogElement>('token')
  const input = byId<HTMLInputElement>('token-input')
  const error = byId('token-error')
  byId('token-why').textContent = `The server asks for your token before it lets you ${why}.`
  error.textContent = wrong ? 'The server did not accept that token. Try again.' : ''
  input.value = ''
  input.setAttribute('aria-invalid', String(wrong))
  dialog.returnValue = ''
  dialog.showModal()
  return new Promise((resolve, reject) => {
    dialog.addEventListener(
      'close',
      () => {
        if (dialog.returnValue === 'use' && input.value) resolve(input.value)
        else reject(new Cancelled('no token given'))
      },
      { once: true },
    )
  })
}
