/** The diary page: the movies latest screened first, a page at a time, filtered by year. */
import type { Movie } from '../client/index'
import { editActions } from './changes'
import { explain } from './explain'
import { createMovieForm } from './movie-form'
import { movieItem } from './movie-item'
import { Cancelled, createSession } from './token'

const PAGE_SIZE = 20
const session = createSession(new URL('/movies', location.href).href)
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const list = byId<HTMLOListElement>('movies')
const more = byId<HTMLButtonElement>('more')
const empty = byId<HTMLParagraphElement>('empty')
const status = byId<HTMLParagraphElement>('status')
const yearInput = byId<HTMLInputElement>('year')

// What is shown: the year filter (none: every year) and where the next page starts.
let year = ''
let cursor: string | null = null

const actions = editActions(session, {
  render: (movie, notice) => movieItem(movie, actions, notice),
  say: (message) => {
    status.textContent = message
  },
  removed: () => showEmpty(),
})

/** Shows the first page (`append` false) or the next one, latest screened first. */
async function load(append: boolean): Promise<void> {
  status.textContent = 'Loading…'
  const range = year ? { from: year, to: year } : {}
  try {
    const page = await session.run('read the diary', (log) =>
      log.listMovies({
        sort: '-screenedDate',
        ...range,
        limit: PAGE_SIZE,
        cursor: append ? cursor : null,
      }),
    )
    if (!append) list.replaceChildren()
    const firstNew = page.movies[0]
    for (const movie of page.movies) list.append(movieItem(movie, actions))
    cursor = page.nextCursor
    more.hidden = cursor === null
    showEmpty()
    status.textContent = append
      ? `${page.movies.length} more shown.`
      : year
        ? `Showing movies screened in ${year}.`
        : ''
    // After "More", the keyboard continues at the first movie it brought.
    if (append && firstNew)
      list.querySelector<HTMLElement>(`[data-id="${firstNew.id}"] button`)?.focus()
  } catch (error) {
    status.textContent =
      error instanceof Cancelled ? 'The diary needs the token to be shown.' : explain(error)
  }
}

function showEmpty(): void {
  empty.hidden = list.children.length > 0
  empty.textContent = year
    ? `No movie screened in ${year}. Choose another year, or show all years.`
    : 'Your diary is empty. Add the first movie you screened with the form above: its title, when you saw it, its release year and its IMDb page.'
}

const add = createMovieForm('add', 'Add to the diary', async (values) => {
  try {
    const movie: Movie = await session.run('add a movie', (log) => log.addMovie(values as never))
    add.clear()
    status.textContent = `Added “${movie.title}”.`
    await load(false)
  } catch (error) {
    if (error instanceof Cancelled) add.say('Not added: the server needs its token.')
    else actions.showError(add, error)
  }
})
byId('add').append(add.form)

byId<HTMLFormElement>('filter').addEventListener('submit', (event) => {
  event.preventDefault()
  const wanted = yearInput.value.trim()
  if (wanted && !/^\d{4}$/.test(wanted)) {
    status.textContent = 'A year has four digits, 2024 say.'
    yearInput.setAttribute('aria-invalid', 'true')
    return
  }
  yearInput.removeAttribute('aria-invalid')
  year = wanted
  void load(false)
})
byId('all-years').addEventListener('click', () => {
  yearInput.value = ''
  year = ''
  void load(false)
})
more.addEventListener('click', () => void load(true))

void load(false)
