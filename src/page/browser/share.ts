/**
 * The "Share" control: the person's share link (`{log}/share`), turned on, renewed (the link
 * before stops working) or off, whether it shows the notes and lets search engines index it.
 * Loaded when the control is first opened, and built then: the diary's first view carries none
 * of it. It imports nothing the page's script has (a shared chunk would load with the page).
 */

interface LinkAnswer {
  token: string
  notes: boolean
  index: boolean
  rss: string
  ics: string
}

const make = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  children: (Node | string)[] = [],
) => {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  node.append(...children)
  return node
}

/** Fills `panel` and keeps it in step with the server; `token`, the tab's, if any. */
export function showShare(
  panel: HTMLElement,
  logUrl: string,
  base: string,
  token: () => string | null,
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

  const call = async (method: string, body?: object) => {
    const headers: Record<string, string> = { accept: 'application/json' }
    const bearer = token()
    if (bearer) headers.authorization = `Bearer ${bearer}`
    if (body) headers['content-type'] = 'application/json'
    const response = await fetch(`${logUrl}/share`, {
      method,
      headers,
      body: body && JSON.stringify(body),
    })
    if (response.status === 404 || response.status === 204) return show(undefined)
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    show((await response.json()) as LinkAnswer)
  }
  const run = (method: string, body?: object) =>
    call(method, body).catch((error: Error) => {
      said.textContent = `The share link could not be read or changed (${error.message}).`
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
}
