/** One movie of the diary: how it reads, and its Edit and Delete buttons. */
import type { Movie } from '../../client/index'
import { element } from './dom'
import { type Rated, shownStars } from './rating'
import { shownTags } from './tags'

export interface ItemActions {
  edit(movie: Movie, item: HTMLLIElement): void
  remove(movie: Movie, item: HTMLLIElement): void
}

// The movie each item shows (the same item while its edit form is open): what the live feed
// compares a change with, to place it and to skip the echo of the page's own save.
const shown = new WeakMap<Element, Movie>()

/** The movie an item of the list shows. */
export const movieOf = (item: Element): Movie | undefined => shown.get(item)

/**
 * The list item of `movie`; `notice` (a 412's explanation, say) is shown above it. Without
 * `actions` (a share link's read-only page), no Edit or Delete.
 */
export function movieItem(movie: Movie, actions?: ItemActions, notice = ''): HTMLLIElement {
  const item = element('li', { class: 'movie', 'data-id': movie.id })
  shown.set(item, movie)
  const headingId = `movie-${movie.id}`
  const screened = element('time', { datetime: movie.screenedDate }, [
    formatDate(movie.screenedDate),
  ])
  const body = element('article', { 'aria-labelledby': headingId }, [
    element('h3', { id: headingId }, [
      movie.title,
      ' ',
      element('span', { class: 'year' }, [`(${movie.releaseYear})`]),
    ]),
    element('p', { class: 'meta' }, [
      'Screened ',
      screened,
      ' · ',
      element('a', { href: movie.imdbLink, rel: 'noreferrer' }, [
        'IMDb',
        element('span', { class: 'visually-hidden' }, [` page of ${movie.title}`]),
      ]),
    ]),
  ])
  const { rating, tags } = movie as Rated
  if (rating) body.append(shownStars(rating))
  if (tags?.length) body.append(shownTags(tags))
  if (movie.notes) body.append(element('p', { class: 'notes' }, [movie.notes]))
  if (notice) item.append(element('p', { class: 'notice', role: 'alert' }, [notice]))
  item.append(body)
  if (!actions) return item
  // Each button's name says which movie it acts on ("Edit “Heat” (1995)"): a screen reader's
  // list of buttons is otherwise twenty "Edit" and twenty "Delete".
  const named = (verb: string) => [
    verb,
    element('span', { class: 'visually-hidden' }, [` “${movie.title}” (${movie.releaseYear})`]),
  ]
  const edit = element('button', { type: 'button' }, named('Edit'))
  const remove = element('button', { type: 'button', class: 'danger' }, named('Delete'))
  edit.addEventListener('click', () => actions.edit(movie, item))
  remove.addEventListener('click', () => actions.remove(movie, item))
  item.append(element('div', { class: 'actions' }, [edit, remove]))
  return item
}

// The date as the diary reads it, in the viewer's language; the time only when it was given.
// One formatter for the page: making one per movie costs more than the rest of the item.
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' })

function formatDate(screenedDate: string): string {
  const [date = '', time = ''] = screenedDate.split('T')
  const [year, month, day] = date.split('-').map(Number)
  const text = DATE.format(new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1)))
  return time.startsWith('00:00:00') ? text : `${text}, ${time.slice(0, 5)}`
}
