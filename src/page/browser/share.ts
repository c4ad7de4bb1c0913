/**
 * The "Share and follow" control: the person's share link (`{log}/share`), turned on, renewed
 * (the link before stops working) or off, whether it shows the notes and lets search engines
 * index it; then their webhooks (./webhooks.ts). Loaded when the control is first opened, and
 * built then: the diary's first view carries none of it. A script of its own (the build makes
 * no chunk shared with the page's), so what it imports of the page's files it carries again:
 * `dom.ts` alone, never the client (types aside).
 */
import type { MovieLogHttpError } from '../../client/index'
import { element as make } from './dom'
import { ownRoutes } from './own-routes'
import type { Session } from './token'
import { showWebhooks } from './webhooks'

interface LinkAnswer {
  token: string
  notes: boolean
  index: boolean
  rss: string
  ics: string
}

/**
 * Fills `panel` and keeps it in step with the server, as the person `session` calls for;
 * `HttpError`, the client's `MovieLogHttpError` (./own-routes.ts).
 */
export function showShare(
  panel: HTMLDetailsElement,
  logUrl: string,
  base: string,
  session: Session,
  HttpError: typeof MovieLogHttpError,
) {
  const said = make('p', { role: 'status' })
  const choice = (name: string, label: string) => {
    const box = make('input', { type: 'checkbox', id: `share-${name}` })
    return [box, make('label', {}, [box, ` ${label}`])] as const
  }
  const [notes, notesLabel] = choice('notes', 'Show my notes')
  const [index, indexLabel] = choice('index', 'Let search engines list it')
  const renew = make('button', { type: 'button' })
  const stop = make('button', { type: 'button', class: 'danger' }, ['Stop sharing'])
  panel.append(said, notesLabel, indexLabel, make('div', { class: 'actions' }, [renew, stop]))

  const call = ownRoutes(logUrl, session, HttpError)
  const run = (method: string, body?: object) =>
    call<LinkAnswer>('/share', method, body)
      .then(show)
      .catch((error: Error) => {
        said.textContent = error.message
      })

  function show(link: LinkAnswer | undefined) {
    stop.hidden = !link
    renew.textContent = link ? 'New link (the old one stops working)' : 'Share a link'
    if (!link) {
      said.textContent = 'Your diary is not shared.'
      return
    }
    notes.checked = link.notes
    index.checked = link.index
    const page = new URL(`${base}/s/${link.token}`, location.href).href
    said.replaceChildren(
      'Anyone with this link can read your diary: ',
      make('a', { href: page, id: 'share-link', rel: 'noreferrer' }, [page]),
      '. Feeds: ',
      make('a', { href: link.rss }, ['RSS']),
      ', ',
      make('a', { href: link.ics }, ['calendar']),
      '.',
    )
  }

  renew.addEventListener(
    'click',
    () => void run('POST', { notes: notes.checked, index: index.checked }),
  )
  stop.addEventListener('click', () => void run('DELETE'))
  void run('GET')
  showWebhooks(panel, call)
}
