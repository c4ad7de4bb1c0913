/**
 * The "Connect your media server" panel: the webhook address of each source (Plex, Jellyfin,
 * Emby, Kodi, any other tool), with the tab's token in it, for the person to paste into their
 * server; the Trakt address with the form that approves an app's code, and the apps approved,
 * each with its Revoke button.
 */
import { MovieLogHttpError } from '../../client/index'
import { byId, element } from './dom'
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

/** An app the person approved, as `GET {log}/trakt/oauth/grants` lists it. */
interface Grant {
  id: number
  approvedAt: string
  client: string | null
}

/**
 * The Trakt part: the address apps that speak Trakt are given (`{log}/trakt`), the form where
 * the person enters the code such an app shows, approving it to act for them (`/#trakt`, where
 * the server's `/activate` leads, opens the panel at it), and the apps approved, listed when the
 * panel opens, each revoked by its button.
 */
export function connectTrakt(logUrl: string, session: Session): void {
  const api = `${logUrl.replace(/\/$/, '')}/trakt`
  byId('trakt-address').textContent = api
  const panel = byId<HTMLDetailsElement>('connect')
  const input = byId<HTMLInputElement>('trakt-code')
  const said = byId('trakt-said')
  const apps = byId('trakt-apps')
  // A call of the page's own Trakt routes, as the person whose token the tab holds. `pinned`:
  // a refusal is thrown rather than asked about (listing is no reason to ask for a token).
  const call = (why: string, path: string, init: RequestInit, pinned?: boolean) =>
    session.run(
      why,
      async () => {
        const token = session.token()
        const response = await fetch(`${api}/oauth/${path}`, {
          ...init,
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        })
        if (response.status === 401 || response.status === 403) {
          throw new MovieLogHttpError(response.status)
        }
        return response
      },
      pinned,
    )

  const showApps = async () => {
    const response = await call('list your apps', 'grants', {}, true).catch(() => undefined)
    // Not the person's to see yet (no token given): nothing said either way.
    if (!response?.ok) return
    const approved: Grant[] = await response.json()
    apps.replaceChildren(
      ...approved.map((app) => {
        const when = new Date(app.approvedAt).toLocaleString()
        const revoke = element('button', { type: 'button', class: 'danger' }, ['Revoke'])
        revoke.setAttribute('aria-label', `Revoke the app approved on ${when}`)
        revoke.addEventListener('click', async () => {
          try {
            await call('revoke an app', `grants/${app.id}`, { method: 'DELETE' })
            said.textContent = 'Revoked: that app no longer logs into your diary.'
          } catch (error) {
            said.textContent =
              error instanceof Cancelled ? 'Revoking needs your token.' : explain(error)
          }
          await showApps()
        })
        return element('li', {}, [
          `Approved ${when}${app.client ? ` (${app.client})` : ''} `,
          revoke,
        ])
      }),
    )
    byId('trakt-none').hidden = approved.length > 0
  }
  panel.addEventListener('toggle', () => {
    if (panel.open) void showApps()
  })
  if (location.hash === '#trakt') {
    panel.open = true
    input.focus()
  }
  byId<HTMLFormElement>('trakt-form').addEventListener('submit', async (event) => {
    event.preventDefault()
    said.textContent = ''
    try {
      // Through the session: a 401 asks for the person's token, then the code goes again.
      const response = await call('approve an app', 'device/approve', {
        method: 'POST',
        body: JSON.stringify({ user_code: input.value }),
      })
      said.textContent = response.ok
        ? 'Approved: the app now logs into your diary.'
        : 'No app is waiting for this code: it may have expired. Sign in from the app again.'
      if (response.ok) input.value = ''
      await showApps()
    } catch (error) {
      said.textContent = error instanceof Cancelled ? 'The code needs your token.' : explain(error)
    }
  })
}
