/** The movie form, for adding and for editing: its fields, its values, its errors beside them. */
import type { Movie, ValidationIssue } from '../../client/index'
import { type Rated, ratingControl, ratingMarkup } from './rating'
import { tagsControl, tagsMarkup } from './tags'

const FIELDS = [
  { name: 'title', label: 'Title', type: 'text' },
  { name: 'screenedDate', label: 'Screened on', type: 'datetime-local' },
  { name: 'releaseYear', label: 'Release year', type: 'number' },
  { name: 'imdbLink', label: 'IMDb link', type: 'url' },
  { name: 'notes', label: 'Notes', type: 'textarea' },
] as const

type FieldName = (typeof FIELDS)[number]['name'] | 'rating' | 'tags'
// What the form reads and writes of a field: an input, or a control of its own (the rating's
// radios, the tags' chips) that holds its value as text the same way.
type Control = Pick<HTMLInputElement, 'id' | 'value' | 'focus' | 'setAttribute' | 'removeAttribute'>

/** The add form's button. */
export const ADD_LABEL = 'Add to the diary'

export interface MovieForm {
  form: HTMLFormElement
  /** Shows each issue beside its field (an issue with no field above the form); focuses the first. */
  showErrors(issues: ValidationIssue[]): void
  /** A message for the whole form (`role=alert`); '' clears it. */
  say(message: string): void
  clear(): void
  /**
   * What the person changed since the form showed its movie, as a merge patch: the edited
   * fields only, so that a save leaves what someone else changed meanwhile as it is. A field
   * emptied is sent empty, for the server to say what it needs.
   */
  edits(): Record<string, unknown>
  /** Shows `movie` (the version now stored) in every field the person has not edited. */
  rebase(movie: Movie): void
}

/**
 * A form whose fields are checked by the server alone (`novalidate`): what it refuses comes back
 * as problem details and is shown beside the fields, the one set of rules the API has. `within`
 * holds the form already in the page (`formMarkup`, the add form: present at first paint, so
 * nothing moves when the script runs); without it, the form is a copy of that one.
 */
export function createMovieForm(
  prefix: string,
  submitLabel: string,
  onSubmit: (values: Record<string, unknown>) => void,
  movie?: Movie,
  within?: HTMLElement,
): MovieForm {
  const served = within?.querySelector('form')
  if (served) blank ??= served.cloneNode(true)
  const form = served ?? copyForm(prefix, submitLabel)
  const summary = form.querySelector('.summary') as HTMLElement
  const inputs = new Map<FieldName, Control>()
  const errors = new Map<FieldName, HTMLElement>()
  // What each field showed of the movie: a field whose value differs is one the person edited.
  const shown = new Map<FieldName, string>()
  const controls: [FieldName, Control][] = [
    ...FIELDS.map(({ name }): [FieldName, Control] => [
      name,
      form.querySelector(`[name="${name}"]`) as HTMLInputElement,
    ]),
    ['rating', ratingControl(form)],
    ['tags', tagsControl(form)],
  ]
  for (const [name, input] of controls) {
    if (movie) {
      input.value = inputValue(name, movie)
      shown.set(name, input.value) // as the input holds it (a date, say, normalised)
    }
    inputs.set(name, input)
    errors.set(name, form.querySelector(`[id="${input.id}-error"]`) as HTMLElement)
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    onSubmit(valuesOf(inputs))
  })

  const clearErrors = () => {
    summary.textContent = ''
    for (const [name, error] of errors) {
      error.textContent = ''
      inputs.get(name)?.removeAttribute('aria-invalid')
    }
  }
  return {
    form,
    showErrors(issues) {
      clearErrors()
      let first: Control | undefined
      for (const issue of issues) {
        const path = issue.path.split('/')[0] // tags/2: the tags field
        const name = (path === 'catalogLink' ? 'imdbLink' : path) as FieldName
        const input = inputs.get(name)
        const error = errors.get(name)
        if (!input || !error) {
          summary.textContent = `${summary.textContent} ${issue.message}`.trim()
          continue
        }
        error.textContent = `${error.textContent} ${capitalise(issue.message)}.`.trim()
        input.setAttribute('aria-invalid', 'true')
        first ??= input
      }
      if (first && !summary.textContent) {
        summary.textContent = `Please correct the ${issues.length === 1 ? 'field' : 'fields'} below.`
      }
      first?.focus()
    },
    say(message) {
      clearErrors()
      summary.textContent = message
    },
    clear() {
      clearErrors()
      form.reset()
    },
    edits() {
      const edits: Record<string, unknown> = {}
      for (const [name, input] of inputs) {
        if (input.value !== shown.get(name)) edits[name] = apiValue(name, input.value)
      }
      return edits
    },
    rebase(stored) {
      for (const [name, input] of inputs) {
        if (input.value !== shown.get(name)) continue
        input.value = inputValue(name, stored)
        shown.set(name, input.value)
      }
    },
  }
}

// What the API takes: the date as YYYY-MM-DDThh:mm:ss.SSS, the year and rating numbers, the tags
// a list. Empty fields are left out of an add so that the server names what is missing (an edit
// sends them: no rating or tags is null, which removes them); text that is not a year is sent
// as it is.
function valuesOf(inputs: Map<FieldName, Control>) {
  const values: Record<string, unknown> = {}
  for (const [name, input] of inputs) {
    if (input.value !== '' || name === 'notes') values[name] = apiValue(name, input.value)
  }
  return values
}

function apiValue(name: FieldName, value: string): unknown {
  if (name === 'rating' || name === 'tags') {
    if (value === '') return null
    return name === 'rating' ? Number(value) : value.split(', ')
  }
  if (value === '') return value
  if (name === 'screenedDate') return value + ':00.000'.slice(value.length - 16)
  if (name === 'releaseYear') return /^\d+$/.test(value) ? Number(value) : value
  return value
}

function inputValue(name: FieldName, movie: Rated): string {
  if (name === 'screenedDate') return movie.screenedDate.replace(/(:00)?\.000$/, '')
  if (name === 'rating') return String(movie.rating ?? '')
  if (name === 'tags') return (movie.tags ?? []).join(', ')
  return String(movie[name])
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

// The attributes of each field's input, for both ways of making the form.
function inputAttributes(prefix: string, field: (typeof FIELDS)[number]): Record<string, string> {
  const id = `${prefix}-${field.name}`
  const attributes: Record<string, string> = { id, name: field.name }
  if (field.type === 'textarea') attributes.rows = '3'
  else attributes.type = field.type
  if (field.type === 'datetime-local') attributes.step = '1'
  if (field.type === 'number') attributes.inputmode = 'numeric'
  attributes['aria-describedby'] = `${id}-error`
  return attributes
}

// Edit forms are copies of the add form as served (`formMarkup`, in index.html), taken before
// the script touches it: one way of making the form in the bundle, not two.
let blank: Node | undefined

function copyForm(prefix: string, submitLabel: string): HTMLFormElement {
  const form = blank?.cloneNode(true) as HTMLFormElement
  for (const node of form.querySelectorAll('*')) {
    for (const name of ['id', 'for', 'aria-describedby']) {
      const value = node.getAttribute(name)
      // The add form's prefix (`add-title`, `add-title-error`) becomes this form's.
      if (value) node.setAttribute(name, value.replace(/^[^-]+/, prefix))
    }
  }
  // The submit button: the rating's Clear is a button too, before it.
  ;(form.querySelector('button[type="submit"]') as HTMLButtonElement).textContent = submitLabel
  return form
}

/**
 * The same form as HTML, for the page's template (the build puts the add form in index.html).
 * Its prefix and labels are the page's own constants, never a person's text.
 */
export function formMarkup(prefix: string, submitLabel: string): string {
  const attributes = (all: Record<string, string>) =>
    Object.entries(all)
      .map(([name, value]) => ` ${name}="${value}"`)
      .join('')
  const fields = FIELDS.map((field) => {
    const input = inputAttributes(prefix, field)
    const control =
      field.type === 'textarea'
        ? `<textarea${attributes(input)}></textarea>`
        : `<input${attributes(input)}>`
    const markup = `<div class="field field-${field.name}"><label for="${input.id}">${field.label}</label>${control}<p id="${input.id}-error" class="error"></p></div>`
    // The rating and the tags come before the notes.
    return field.name === 'notes' ? ratingMarkup(prefix) + tagsMarkup(prefix) + markup : markup
  })
  return `<form class="movie-form" novalidate><p class="error summary" role="alert"></p>${fields.join('')}<div class="actions"><button type="submit">${submitLabel}</button></div></form>`
}
