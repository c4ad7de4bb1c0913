/**
 * The add form's title field suggests IMDb entries from the server's catalog as one types: an
 * ARIA 1.2 combobox with list autocomplete. The focus stays in the field; the arrows move
 * through the options (`aria-activedescendant`), Enter or a click chooses one, Escape closes the
 * list; a status line says how many were found. Choosing fills the title, the release year and
 * the IMDb link. A server without a catalog (404) is not asked again: the field stays a field.
 */
import { type Catalog, type CatalogEntry, CatalogNotLoadedError } from '../../client/index'

/** The pause in typing before the catalog is asked, in ms: one question per word, not per key. */
const PAUSE_MS = 200
const SHOWN = 8

/** Makes the title field of `form` a combobox asking `catalog()` (the client of the moment). */
export function suggestTitles(form: HTMLFormElement, catalog: () => Catalog): void {
  const field = (name: string) => form.querySelector(`[name="${name}"]`) as HTMLInputElement
  const [input, year, link] = [field('title'), field('releaseYear'), field('imdbLink')]
  const list = document.createElement('ul')
  list.id = `${input.id}-suggestions`
  list.className = 'suggestions'
  list.hidden = true
  list.setAttribute('role', 'listbox')
  list.setAttribute('aria-label', 'IMDb titles')
  const status = document.createElement('p')
  status.className = 'visually-hidden'
  status.setAttribute('role', 'status')
  input.after(list, status)
  const combobox = {
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': list.id,
    autocomplete: 'off',
  }
  for (const [name, value] of Object.entries(combobox)) input.setAttribute(name, value)

  let entries: CatalogEntry[] = []
  let active = -1
  let asked = 0
  let noCatalog = false
  let timer: ReturnType<typeof setTimeout> | undefined

  const close = () => {
    list.hidden = true
    active = -1
    input.setAttribute('aria-expanded', 'false')
    input.removeAttribute('aria-activedescendant')
  }
  const show = (found: CatalogEntry[]) => {
    entries = found
    list.replaceChildren(...found.map(option))
    close()
    list.hidden = found.length === 0
    input.setAttribute('aria-expanded', String(found.length > 0))
    status.textContent =
      found.length === 0
        ? 'No IMDb title found.'
        : `${found.length} IMDb ${found.length === 1 ? 'title' : 'titles'}: down arrow to choose.`
  }
  const option = (entry: CatalogEntry, index: number) => {
    const item = document.createElement('li')
    item.id = `${list.id}-${index}`
    item.dataset.index = String(index)
    item.setAttribute('role', 'option')
    item.setAttribute('aria-selected', 'false')
    const original = entry.originalTitle !== entry.title ? ` · ${entry.originalTitle}` : ''
    item.textContent = `${entry.title} (${entry.year ?? 'year unknown'})${original}`
    return item
  }
  const highlight = (index: number) => {
    list.children[active]?.setAttribute('aria-selected', 'false')
    active = index
    const chosen = list.children[index] as HTMLElement
    chosen.setAttribute('aria-selected', 'true')
    input.setAttribute('aria-activedescendant', chosen.id)
    chosen.scrollIntoView({ block: 'nearest' })
  }
  const choose = (index: number) => {
    const entry = entries[index] as CatalogEntry
    input.value = entry.title
    year.value = entry.year === undefined ? '' : String(entry.year)
    link.value = entry.imdbLink
    close()
    status.textContent = `${entry.title} chosen: its year and IMDb link are filled in.`
  }
  const ask = async () => {
    const words = input.value.trim()
    const mine = ++asked
    if (noCatalog || words.length < 2) return close()
    try {
      const found = await catalog().find({ title: words }, SHOWN)
      // An answer overtaken by later typing, or come after the person left the field, is dropped.
      if (mine === asked && document.activeElement === input) show(found)
    } catch (error) {
      noCatalog ||= CatalogNotLoadedError.is(error)
      close()
    }
  }

  input.addEventListener('input', () => {
    clearTimeout(timer)
    timer = setTimeout(ask, PAUSE_MS)
  })
  input.addEventListener('keydown', (event) => {
    if (list.hidden || entries.length === 0) return
    if (event.key === 'ArrowDown') highlight((active + 1) % entries.length)
    else if (event.key === 'ArrowUp') highlight(active <= 0 ? entries.length - 1 : active - 1)
    else if (event.key === 'Enter' && active >= 0) choose(active)
    else if (event.key === 'Escape') close()
    else return
    event.preventDefault()
  })
  input.addEventListener('blur', close)
  // A press on an option keeps the focus in the field (no blur), and the click chooses it.
  list.addEventListener('pointerdown', (event) => event.preventDefault())
  list.addEventListener('click', (event) => {
    const item = (event.target as Element).closest<HTMLElement>('[role="option"]')
    if (item) choose(Number(item.dataset.index))
  })
}
