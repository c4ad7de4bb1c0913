/**
 * The read-only mode of the diary page, for a share link (`/s/<token>`): the same page, its add
 * form, edits, token prompt and panels left out by the server (src/page/server/shared.ts), and
 * this script in place of the diary's. It reads the link's listing (`movie-log-api`), latest
 * screened first, a page at a time, and keeps nothing in the browser.
 */
import { createMovieLogClient } from '../../client/index'
import { byId } from './dom'
import { explain } from './explain'
import { movieItem } from './movie-item'

const PAGE_SIZE = 20
const api = document.querySelector<HTMLMetaElement>('meta[name="movie-log-api"]')?.content ?? ''
const log = createMovieLogClient(new URL(api, location.href).href, { retries: 2 })
const list = byId<HTMLOListElement>('movies')
const more = byId<HTMLButtonElement>('more')
const empty = byId<HTMLParagraphElement>('empty')
const status = byId<HTMLParagraphElement>('status')
let cursor: string | null = null

async function load(append: boolean): Promise<void> {
  status.textContent = 'Loading…'
  try {
    const page = await log.listMovies({ sort: '-screenedDate', limit: PAGE_SIZE, cursor })
    for (const movie of page.movies) list.append(movieItem(movie))
    cursor = page.nextCursor
    more.hidden = cursor === null
    empty.hidden = list.children.length > 0
    empty.textContent = 'No movie in this diary yet.'
    status.textContent = append ? `${page.movies.length} more shown.` : ''
    if (append) list.querySelector<HTMLElement>(`[data-id="${page.movies[0]?.id}"] a`)?.focus()
  } catch (error) {
    status.textContent = explain(error)
  }
}

more.addEventListener('click', () => void load(true))
void load(false)
