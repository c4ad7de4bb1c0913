/**
 * The "Connect your media server" panel: the webhook address of each source (Plex, Jellyfin,
 * Emby, Kodi, any other tool), with the tab's token in it, for the person to paste into their
 * server; and the Trakt address with the form that approves an app's code.
 */
import { MovieLogHttpError } from '../../client/index'
import { byId } from './dom'
import { explain } from './explain'
import { Cancelled, type Session } from './token'

/** Writes each `[data-hook]` address: the log's `/scrobble/<source>`, `?token=` when one is held. */
export function showWebhooks(logUrl: string, token: string | null): void {
  for (const code of document.querySelectorAll<HTMLElement>('[data-hook]')) {
    const url = new URL(`${logUrl.replace(/\/$/, '')}/scrobble/${code.dataset.hook}`)
    if (token) url.searchParams.set('token', token)
    code.textContent = url.href
  }
}

/**
 * The Trakt part: the address apps that speak Trakt are given (`{log}/trakt`), and the form where
 * the person enters the code such an app shows, approving it to act for them (`/#trakt`, where
 * the server's `/activate` leads, opens the panel at it).
 */
export function connectTrakt(logUrl: string, session: Session): void {
  const api = `${logUrl.replace(/\/$/, '')}/trakt`
  byId('trakt-address').textContent = api
  const input = byId<HTMLInputElement>('trakt-code')
  const said = byId('trakt-said')
  if (location.hash === '#trakt') {
    byId<HTMLDetailsElement>('connect').open = true
    input.focus()
  }
  byId<HTMLFormElement>('trakt-form').addEventListener('submit', async (event) => {
    event.preventDefault()
    said.textContent = ''
    try {
      // Through the session: a 401 asks for the person's token, then the code goes again.
      const approved = await session.run('approve an app', async () => {
        const token = session.token()
        const response = await fetch(`${api}/oauth/device/approve`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({ user_code: input.value }),
        })
        if (response.status === 401 || response.status === 403) {
          throw new MovieLogHttpError(response.status)
        }
        return response.ok
      })
      said.textContent = approved
        ? 'Approved: the app now logs into your diary.'
        : 'No app is waiting for this code: it may have expired. Sign in from the app again.'
      if (approved) input.value = ''
    } catch (error) {
      said.textContent = error instanceof Cancelled ? 'The code needs your token.' : explain(error)
    }
  })
}
