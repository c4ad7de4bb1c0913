/**
 * Following the log's change feed (the client's `watch()`, one stream per page): adds, edits
 * and deletes made elsewhere are shown in their place in the list, latest screened first, as
 * far as the year filter and the pages loaded reach. An edit form open on a movie is never
 * redrawn: it is told instead.
 */
import { type LogChange, type Movie, versionOf } from '../../client/index'
import type { OpenEdit } from './changes'
import { explain } from './explain'
import { movieOf } from './movie-item'
import { Cancelled, type Session } from './token'

export interface LiveView {
  list: HTMLOListElement
  render(movie: Movie): HTMLLIElement
  /** The year shown ('' for every year). */
  year(): string
  /** Whether the list is a search: which movies match, the server says, so it is read again. */
  searched(): boolean
  /** Any change read from the feed (the year in review counts again). */
  heard(): void
  /** Whether every page of the listing is loaded (no "More"). */
  complete(): boolean
  /** The edit form open on a movie, if one is. */
  editing(id: string): OpenEdit | undefined
  /** The list changed: the empty state may be due. */
  changed(): void
  say(message: string): void
  /** Reads the list again (the feed could not say what changed). */
  reload(): Promise<void>
}

// Latest screened first, ties by id in the same direction: the order of `-screenedDate` (the
// server gives every date in full, one length, so the two compare as one string).
const key = (movie: Movie) => movie.screenedDate + movie.id

export function followChanges(session: Session, view: LiveView) {
  let watching: AbortController | undefined
  // The last change read: a watch begun again resumes after it.
  let after: string | undefined
  // Changes read while the list loads, applied once it is shown (a load replaces the list).
  let loading = 0
  const held: LogChange[] = []
  // Why the feed stopped, held while a load's words would cover it.
  let unsaid: string | undefined

  const itemOf = (id: string) =>
    view.list.querySelector<HTMLLIElement>(`li.movie[data-id="${CSS.escape(id)}"]`)

  /** Shows `movie` where the order puts it, or nowhere when it is outside what is shown. */
  function place(movie: Movie): void {
    const old = itemOf(movie.id)
    const year = view.year()
    const next = [...view.list.children].find((item) => {
      const shown = item !== old && movieOf(item)
      return shown && key(movie) > key(shown)
    })
    // Past the last item loaded while more pages remain: "More" brings it in its turn.
    const fits = (!year || movie.screenedDate.startsWith(year)) && (next || view.complete())
    if (!fits) {
      old?.remove()
      return
    }
    // The echo of this page's own save keeps its item, moved if the date changed.
    const was = old && movieOf(old)
    const item = old && was && versionOf(was) === versionOf(movie) ? old : view.render(movie)
    if (item === old && old.nextElementSibling === (next ?? null)) return
    // The keyboard stays on the same button of the movie redrawn or moved.
    const buttons = old ? [...old.querySelectorAll('button')] : []
    const focused = buttons.indexOf(document.activeElement as HTMLButtonElement)
    if (item !== old) old?.remove()
    view.list.insertBefore(item, next ?? null)
    if (focused >= 0) item.querySelectorAll('button')[focused]?.focus()
  }

  function apply(change: LogChange) {
    if (change.type === 'reset') {
      void view.reload()
      return
    }
    const { id } = change.movie
    const edit = view.editing(id)
    if (change.type === 'deleted') {
      if (edit) return edit.deleted()
      const item = itemOf(id)
      if (!item) return
      const title = movieOf(item)?.title
      item.remove()
      view.changed()
      view.say(`“${title}” was deleted elsewhere.`)
      return
    }
    if (edit) return edit.changed(change.movie)
    if (view.searched()) {
      void view.reload()
      return
    }
    const known = itemOf(id)
    place(change.movie)
    view.changed()
    if (!known && itemOf(id)) view.say(`“${change.movie.title}” was added elsewhere.`)
  }

  return {
    place,
    /**
     * Follows the feed after the last change read (idempotent). Called before each read of the
     * list: a change made while it loads is held, then applied, so none falls between the two.
     */
    start(): void {
      if (watching) return
      const controller = new AbortController()
      watching = controller
      void session
        .run('follow the diary', async (log) => {
          for await (const change of log.watch({ after, signal: controller.signal })) {
            if (change.id) after = change.id
            view.heard()
            if (loading > 0) held.push(change)
            else apply(change)
          }
        })
        // A feed refused (a server with none): the page works without it, and says so. Stopped
        // here (offline) or the token not given: the page says what it needs elsewhere.
        .catch((error: unknown) => {
          if (controller.signal.aborted || error instanceof Cancelled) return
          const message = `Changes made elsewhere are not shown as they happen. ${explain(error)}`
          // Said after a load in progress, whose own words would cover it.
          if (loading > 0) unsaid = message
          else view.say(message)
        })
        .finally(() => {
          if (watching === controller) watching = undefined
        })
    },
    /** Stops following (offline): `start` resumes after the last change read. */
    stop(): void {
      watching?.abort()
      watching = undefined
    },
    /** Runs a load of the list, holding the changes read meanwhile until it is shown. */
    async during<T>(load: () => Promise<T>): Promise<T> {
      loading++
      try {
        return await load()
      } finally {
        loading--
        if (loading === 0) {
          for (const change of held.splice(0)) apply(change)
          if (unsaid) view.say(unsaid)
          unsaid = undefined
        }
      }
    },
  }
}
