/** Editing and deleting a movie with its version in If-Match, and what a 412 shows. */
import {
  type Movie,
  MovieValidationError,
  PreconditionFailedError,
  versionOf,
} from 'movie-log/client'
import { element } from './dom'
import { explain } from './explain'
import { createMovieForm, type MovieForm } from './movie-form'
import { Cancelled, type Session } from './token'

export interface ListView {
  /** The list item of a movie, with a notice above it. */
  render(movie: Movie, notice?: string): HTMLLIElement
  /** Says something in the page's status line. */
  say(message: string): void
  /** A movie left the list: the empty state may be due. */
  removed(): void
}

const CHANGED_ELSEWHERE = 'Someone changed this movie elsewhere since you opened it, so nothing was'

export function editActions(session: Session, view: ListView) {
  const showError = (form: MovieForm, error: unknown) => {
    if (MovieValidationError.is(error)) form.showErrors(error.issues)
    else if (error instanceof Cancelled) form.say('Not saved: the server needs its token.')
    else form.say(explain(error))
  }

  // The movie now stored, after a 412: undefined when it was deleted elsewhere.
  const latest = (id: string) => session.run('read the diary', (log) => log.getMovie(id))

  const goneElsewhere = (item: HTMLLIElement) => {
    item.remove()
    view.removed()
    view.say('Someone deleted this movie elsewhere; it is gone from the diary.')
    document.getElementById('diary')?.focus()
  }

  function edit(movie: Movie, item: HTMLLIElement): void {
    let current = movie
    const notice = element('p', { class: 'notice', role: 'alert', hidden: '' })
    const form = createMovieForm(
      `edit-${movie.id}`,
      'Save',
      async (values) => {
        try {
          const saved = await session.run('change a movie', (log) =>
            log.updateMovie(movie.id, values, { ifMatch: versionOf(current) }),
          )
          const shown = view.render(saved)
          item.replaceWith(shown)
          shown.querySelector('button')?.focus()
          view.say(`Saved “${saved.title}”.`)
        } catch (error) {
          if (!PreconditionFailedError.is(error)) return showError(form, error)
          const now = await latest(movie.id).catch(() => undefined)
          if (!now) return goneElsewhere(item)
          // The next save applies the form over the version now stored.
          current = now
          notice.hidden = false
          notice.textContent = `${CHANGED_ELSEWHERE} saved. It now reads: ${describe(now)}. Your edits are still in the form: save again to apply them to this version, or cancel.`
          notice.focus()
        }
      },
      movie,
    )
    const cancel = element('button', { type: 'button' }, ['Cancel'])
    cancel.addEventListener('click', () => {
      const shown = view.render(current)
      item.replaceWith(shown)
      shown.querySelector('button')?.focus()
    })
    form.form.querySelector('.actions')?.append(cancel)
    notice.tabIndex = -1
    item.replaceChildren(element('h3', {}, [`Editing “${movie.title}”`]), notice, form.form)
    form.form.querySelector('input')?.focus()
  }

  async function remove(movie: Movie, item: HTMLLIElement): Promise<void> {
    if (!confirm(`Delete “${movie.title}” from the diary?`)) return
    try {
      const deleted = await session.run('delete a movie', (log) =>
        log.deleteMovie(movie.id, { ifMatch: versionOf(movie) }),
      )
      item.remove()
      view.removed()
      view.say(deleted ? `Deleted “${movie.title}”.` : `“${movie.title}” was already deleted.`)
      document.getElementById('diary')?.focus()
    } catch (error) {
      if (!PreconditionFailedError.is(error)) return view.say(explain(error))
      const now = await latest(movie.id).catch(() => undefined)
      if (!now) return goneElsewhere(item)
      const shown = view.render(
        now,
        `${CHANGED_ELSEWHERE} deleted. This is the version now stored; delete it again if you still want to.`,
      )
      item.replaceWith(shown)
      shown.querySelector('button')?.focus()
    }
  }

  return {
    edit,
    remove: (movie: Movie, item: HTMLLIElement) => void remove(movie, item),
    showError,
  }
}

function describe(movie: Movie): string {
  const notes = movie.notes ? `, notes “${movie.notes}”` : ''
  return `“${movie.title}” (${movie.releaseYear}), screened ${movie.screenedDate.replace('T', ' ').slice(0, 16)}${notes}`
}
