/** The movie form, for adding and for editing: its fields, its values, its errors beside them. */
import type { Movie, ValidationIssue } from '../client/index'
import { element } from './dom'

const FIELDS = [
  { name: 'title', label: 'Title', type: 'text' },
  { name: 'screenedDate', label: 'Screened on', type: 'datetime-local' },
  { name: 'releaseYear', label: 'Release year', type: 'number' },
  { name: 'imdbLink', label: 'IMDb link', type: 'url' },
  { name: 'notes', label: 'Notes', type: 'textarea' },
] as const

type FieldName = (typeof FIELDS)[number]['name']

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
 * as problem details and is shown beside the fields, the one set of rules the API has.
 */
export function createMovieForm(
  prefix: string,
  submitLabel: string,
  onSubmit: (values: Record<string, unknown>) => void,
  movie?: Movie,
): MovieForm {
  const form = element('form', { class: 'movie-form', novalidate: '' })
  const summary = element('p', { class: 'error summary', role: 'alert' })
  form.append(summary)
  const inputs = new Map<FieldName, HTMLInputElement | HTMLTextAreaElement>()
  const errors = new Map<FieldName, HTMLElement>()
  // What each field showed of the movie: a field whose value differs is one the person edited.
  const shown = new Map<FieldName, string>()
  for (const field of FIELDS) {
    const id = `${prefix}-${field.name}`
    const input =
      field.type === 'textarea'
        ? element('textarea', { id, name: field.name, rows: '3' })
        : element('input', { id, name: field.name, type: field.type })
    if (field.type === 'datetime-local') input.setAttribute('step', '1')
    if (field.type === 'number') input.setAttribute('inputmode', 'numeric')
    if (movie) {
      input.value = inputValue(field.name, movie)
      shown.set(field.name, input.value) // as the input holds it (a date, say, normalised)
    }
    const error = element('p', { id: `${id}-error`, class: 'error' })
    input.setAttribute('aria-describedby', error.id)
    inputs.set(field.name, input)
    errors.set(field.name, error)
    form.append(
      element('div', { class: `field field-${field.name}` }, [
        element('label', { for: id }, [field.label]),
        input,
        error,
      ]),
    )
  }
  const actions = element('div', { class: 'actions' }, [
    element('button', { type: 'submit' }, [submitLabel]),
  ])
  form.append(actions)
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
      let first: HTMLElement | undefined
      for (const issue of issues) {
        const name = (issue.path === 'catalogLink' ? 'imdbLink' : issue.path) as FieldName
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

// What the API takes: the date as YYYY-MM-DDThh:mm:ss.SSS, the year a number. Empty fields are
// left out so that the server names what is missing; text that is not a year is sent as it is.
function valuesOf(inputs: Map<FieldName, HTMLInputElement | HTMLTextAreaElement>) {
  const values: Record<string, unknown> = {}
  for (const [name, input] of inputs) {
    if (input.value !== '' || name === 'notes') values[name] = apiValue(name, input.value)
  }
  return values
}

function apiValue(name: FieldName, value: string): unknown {
  if (value === '') return value
  if (name === 'screenedDate') return value + ':00.000'.slice(value.length - 16)
  if (name === 'releaseYear') return /^\d+$/.test(value) ? Number(value) : value
  return value
}

function inputValue(name: FieldName, movie: Movie): string {
  if (name === 'screenedDate') return movie.screenedDate.replace(/(:00)?\.000$/, '')
  return String(movie[name])
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
