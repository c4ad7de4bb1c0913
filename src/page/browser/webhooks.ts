/**
 * The Share control's "Webhooks" section: the person's outgoing webhook endpoints
 * (`{log}/webhooks`), each with its status and a Remove button, and the form adding one, whose
 * `whsec_` secret is shown this once. Listed again each time the control is opened.
 */
import { element } from './dom'
import { type FieldProblem, type OwnRoutes, Refused } from './own-routes'

/** An endpoint as `GET {log}/webhooks` lists it. */
interface Endpoint {
  id: string
  url: string
  events: string[]
  status: 'active' | 'failing'
  lastError: { message: string; at: string } | null
}

const EVENTS = ['movie.added', 'movie.updated', 'movie.deleted']

const when = (at: string) =>
  new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** Appends the section to `panel` (the `<details>` of the control) and lists the endpoints. */
export function showWebhooks(panel: HTMLDetailsElement, call: OwnRoutes): void {
  const list = element('ul', { class: 'hooks' })
  const said = element('p', { role: 'status' })
  const secret = element('div', { hidden: '' })
  const url = element('input', {
    id: 'hook-url',
    type: 'url',
    name: 'url',
    size: '36',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'https://',
    'aria-describedby': 'hook-url-error',
  })
  const urlError = element('p', { id: 'hook-url-error', class: 'error' })
  const eventsError = element('p', { id: 'hook-events-error', class: 'error' })
  const boxes = EVENTS.map((name) =>
    element('input', { type: 'checkbox', name: 'events', value: name, checked: '' }),
  )
  const events = element('fieldset', { 'aria-describedby': 'hook-events-error' }, [
    element('legend', {}, ['Tell it of']),
    ...boxes.map((box) => element('label', {}, [box, ` ${box.value}`])),
  ])
  const form = element('form', { novalidate: '' }, [
    element('label', { for: 'hook-url' }, ['Endpoint URL']),
    url,
    urlError,
    events,
    eventsError,
    element('div', { class: 'actions' }, [element('button', { type: 'submit' }, ['Add endpoint'])]),
  ])
  panel.append(
    element('section', { 'aria-labelledby': 'hooks-heading' }, [
      element('h2', { id: 'hooks-heading' }, ['Webhooks']),
      element('p', { class: 'hint' }, [
        'Each movie added, edited or deleted is sent to these addresses, signed (Standard Webhooks).',
      ]),
      list,
      form,
      secret,
      said,
    ]),
  )

  const forgetSecret = () => {
    secret.hidden = true
    secret.replaceChildren()
  }
  const failed = (error: unknown) => {
    said.textContent = error instanceof Refused ? error.message : String(error)
  }

  async function refresh() {
    const endpoints = (await call<Endpoint[]>('/webhooks')) ?? []
    list.replaceChildren(...endpoints.map(item))
    if (!endpoints.length) list.append(element('li', {}, ['No endpoint yet.']))
  }

  function item(endpoint: Endpoint): HTMLLIElement {
    const { message, at } = endpoint.lastError ?? {}
    const status =
      endpoint.status === 'failing'
        ? `Failing: ${message} (${when(at as string)})`
        : message
          ? `Active, trying again: ${message} (${when(at as string)})`
          : 'Active'
    const remove = element('button', { type: 'button', class: 'danger' }, [
      'Remove',
      element('span', { class: 'visually-hidden' }, [` ${endpoint.url}`]),
    ])
    remove.addEventListener('click', async () => {
      forgetSecret()
      try {
        await call(`/webhooks/${encodeURIComponent(endpoint.id)}`, 'DELETE')
        said.textContent = `Removed ${endpoint.url}: nothing more is sent to it.`
        await refresh()
        url.focus()
      } catch (error) {
        failed(error)
      }
    })
    return element('li', {}, [
      element('code', {}, [endpoint.url]),
      element('p', {}, [`${endpoint.events.join(', ')}. `, status]),
      remove,
    ])
  }

  // What a 400 named, beside its field: the events under their boxes, anything else the URL.
  const showFields = (fields: FieldProblem[]) => {
    for (const { pointer, detail } of fields) {
      const shown = pointer === '/events' ? eventsError : urlError
      shown.textContent = `${detail.charAt(0).toUpperCase()}${detail.slice(1)}.`
      if (pointer !== '/events') url.setAttribute('aria-invalid', 'true')
    }
    if (fields.length) (fields[0]?.pointer === '/events' ? boxes[0] : url)?.focus()
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    url.removeAttribute('aria-invalid')
    urlError.textContent = eventsError.textContent = ''
    forgetSecret()
    said.textContent = 'Adding…'
    try {
      const added = await call<Endpoint & { secret: string }>('/webhooks', 'POST', {
        url: url.value.trim(),
        events: boxes.filter((box) => box.checked).map((box) => box.value),
      })
      if (!added) throw new Refused('The server has no webhooks here.')
      const shown = element('input', { id: 'hook-secret', readonly: '', value: added.secret })
      secret.replaceChildren(
        element('label', { for: 'hook-secret' }, [
          `The secret of ${added.url}: `,
          element('strong', {}, ['copy it now, it is not shown again']),
        ]),
        shown,
      )
      secret.hidden = false
      said.textContent = `Added ${added.url}: the next change is sent to it.`
      form.reset()
      shown.select()
      await refresh()
    } catch (error) {
      failed(error)
      if (error instanceof Refused) showFields(error.fields)
    }
  })

  // The secret is gone once the control is closed; the list is read again when it is opened.
  panel.addEventListener('toggle', () => {
    if (panel.open) void refresh().catch(failed)
    else forgetSecret()
  })
  void refresh().catch(failed)
}
