/**
 * Tags as chips: typed into the form's field (Enter or a comma makes a chip, Backspace in the
 * empty field or a chip's × takes one away), the person's own tags suggested, and an entry's
 * tags as a list.
 */
import { element } from './dom'

/** The id of the page's list of the person's tags (a `<datalist>` in index.html). */
export const SUGGESTIONS = 'tag-suggestions'

/** The field as HTML, for the form's markup. Its prefix is the page's own. */
export function tagsMarkup(prefix: string): string {
  const id = `${prefix}-tags`
  return `<div class="field field-tags"><label for="${id}">Tags <span class="hint">(Enter or a comma after each)</span></label><div class="chips"><ul class="chip-list"></ul><input id="${id}" type="text" list="${SUGGESTIONS}" autocomplete="off" enterkeyhint="enter" aria-describedby="${id}-error"></div><p id="${id}-error" class="error"></p></div>`
}

// Tags are one when they differ only by case or accents, as the log counts them.
const folded = (tag: string) => tag.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

/**
 * The tags field of `form` as the form reads its fields: `value` is the tags joined by ', '
 * (a tag holds no comma), what is typed and not yet a chip included; setting it shows chips.
 */
export function tagsControl(form: HTMLFormElement) {
  const field = form.querySelector('.field-tags') as HTMLElement
  const list = field.querySelector('ul') as HTMLUListElement
  const input = field.querySelector('input') as HTMLInputElement
  const chips: string[] = []
  const typed = () => input.value.split(',').map((tag) => tag.trim())

  function show(): void {
    list.replaceChildren(
      ...chips.map((tag, n) => {
        const remove = element('button', { type: 'button', 'aria-label': `Remove tag ${tag}` }, [
          '×',
        ])
        remove.addEventListener('click', () => {
          chips.splice(n, 1)
          show()
          input.focus()
        })
        return element('li', { class: 'chip' }, [tag, remove])
      }),
    )
  }
  function add(tags: string[]): void {
    for (const tag of tags) {
      if (tag && !chips.some((chip) => folded(chip) === folded(tag))) chips.push(tag)
    }
    show()
  }

  input.addEventListener('input', () => {
    if (!input.value.includes(',')) return
    const parts = typed()
    input.value = parts.pop() ?? '' // the text after the last comma is still being typed
    add(parts)
  })
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && input.value.trim()) {
      event.preventDefault() // a chip, not the form sent
      add(typed())
      input.value = ''
    } else if (event.key === 'Backspace' && !input.value && chips.length > 0) {
      chips.pop()
      show()
    }
  })
  form.addEventListener('reset', () => {
    chips.length = 0
    show()
  })
  return {
    id: input.id,
    get value() {
      return [...chips, ...typed()].filter(Boolean).join(', ')
    },
    set value(tags: string) {
      chips.length = 0
      input.value = ''
      add(tags.split(', '))
    },
    focus: () => input.focus(),
    setAttribute: (name: string, value: string) => input.setAttribute(name, value),
    removeAttribute: (name: string) => input.removeAttribute(name),
  }
}

/** An entry's tags, as a list. */
export const shownTags = (tags: string[]) =>
  element(
    'ul',
    { class: 'tags', 'aria-label': 'Tags' },
    tags.map((tag) => element('li', {}, [tag])),
  )
