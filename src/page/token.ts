/**
 * The client the page calls through, and the token prompt: when the server answers 401 (the
 * example server's MOVIE_LOG_TOKEN guards writes, and reads too when private), the page asks
 * for the token, keeps it for this tab (sessionStorage), and tries the call again.
 */
import { createMovieLogClient, type MovieLog, MovieLogHttpError } from '../client/index'

const KEY = 'movie-log-token'

/** The user closed the token prompt: the call was not made. */
export class Cancelled extends Error {
  override name = 'Cancelled'
}

export interface Session {
  /** Runs `call`, asking for a token (`why` says what for) as long as the server refuses it. */
  run<T>(why: string, call: (log: MovieLog) => Promise<T>): Promise<T>
}

export function createSession(logUrl: string): Session {
  // Two retries: what the network loses beyond them, the page keeps (adds wait in the outbox, the
  // diary last seen is shown) rather than keep the person waiting.
  const clientFor = (token: string | null) =>
    createMovieLogClient(logUrl, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      retries: 2,
    })
  let token = sessionStorage.getItem(KEY)
  let log = clientFor(token)
  return {
    async run(why, call) {
      for (let refused = false; ; refused = true) {
        try {
          return await call(log)
        } catch (error) {
          if (!(error instanceof MovieLogHttpError) || ![401, 403].includes(error.status)) {
            throw error
          }
          token = await askForToken(why, refused && token !== null)
          sessionStorage.setItem(KEY, token)
          log = clientFor(token)
        }
      }
    },
  }
}

function askForToken(why: string, wrong: boolean): Promise<string> {
  const dialog = document.getElementById('token') as HTMLDialogElement
  const input = document.getElementById('token-input') as HTMLInputElement
  const error = document.getElementById('token-error') as HTMLElement
  ;(document.getElementById('token-why') as HTMLElement).textContent =
    `The server asks for your token before it lets you ${why}.`
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
