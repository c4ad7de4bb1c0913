/**
 * A rating, 1 to 10, as five stars with halves (7 is three and a half): the form's control, a
 * radio group of ten labelled values (arrow keys move, Delete clears), and how an entry shows it.
 */
import type { Movie } from '../../client/index'
import { element } from './dom'

/** A movie with its rating and tags, both optional (issue 57). */
export type Rated = Movie & { rating?: number; tags?: string[] }

/** A rating in words: 7 is "3½ stars", 1 "½ star". */
export function starsText(rating: number): string {
  const whole = Math.floor(rating / 2)
  const stars = `${whole || ''}${rating % 2 ? '½' : ''}`
  return `${stars} ${rating > 2 ? 'stars' : 'star'}`
}

/**
 * The control as HTML, for the form's markup: ten radios, each a half star with its value in
 * words, and a button to clear. Its prefix is the page's own, never a person's text.
 */
export function ratingMarkup(prefix: string): string {
  const id = `${prefix}-rating`
  const halves = Array.from({ length: 10 }, (_, n) => {
    const value = n + 1
    return `<input type="radio" name="rating" value="${value}" id="${id}-${value}" class="visually-hidden" aria-describedby="${id}-error"><label for="${id}-${value}" class="${value % 2 ? 'left' : 'right'}"><span class="visually-hidden">${starsText(value)}</span></label>`
  })
  return `<fieldset class="field field-rating" id="${id}"><legend>Rating</legend><div class="stars">${halves.join('')}</div><button type="button" class="clear">Clear<span class="visually-hidden"> rating</span></button><p id="${id}-error" class="error"></p></fieldset>`
}

/**
 * The rating control of `form` as the form reads its fields: `value` is the rating as text
 * ('7'), '' for none; setting it checks that half star.
 */
export function ratingControl(form: HTMLFormElement) {
  const group = form.querySelector('.field-rating') as HTMLFieldSetElement
  const radios = [...group.querySelectorAll('input')]
  const clear = () => {
    for (const radio of radios) radio.checked = false
  }
  group.querySelector('button')?.addEventListener('click', clear)
  // Delete or Backspace on a star clears too, for the keyboard already in the group.
  group.addEventListener('keydown', (event) => {
    if (event.key !== 'Delete' && event.key !== 'Backspace') return
    event.preventDefault()
    clear()
  })
  return {
    id: group.id,
    get value() {
      return radios.find((radio) => radio.checked)?.value ?? ''
    },
    set value(rating: string) {
      for (const radio of radios) radio.checked = radio.value === rating
    },
    focus() {
      ;(radios.find((radio) => radio.checked) ?? radios[0])?.focus()
    },
    setAttribute(name: string, value: string) {
      for (const radio of radios) radio.setAttribute(name, value)
    },
    removeAttribute(name: string) {
      for (const radio of radios) radio.removeAttribute(name)
    },
  }
}

/** An entry's rating: five stars drawn, the rating in words for screen readers. */
export function shownStars(rating: number): HTMLElement {
  const stars = Array.from({ length: 5 }, (_, n) => {
    const fill = rating - n * 2
    return element('i', { class: fill >= 2 ? 'full' : fill === 1 ? 'half' : '' })
  })
  return element(
    'p',
    { class: 'rating', role: 'img', 'aria-label': `Rated ${starsText(rating)}` },
    stars,
  )
}
