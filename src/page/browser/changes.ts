/** Editing and deleting a movie with its version in If-Match, and what a 412 shows. */
import {
  type Movie,
  MovieValidationError,
  PreconditionFailedError,
  versionOf,
} from '../../client/index'
import { byId, element } from './dom'
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
  /** Puts a movie saved here where the order shows it (its date may have changed). */
  place(movie: Movie): void
}

const CHANGED_ELSEWHERE = 'Someone changed this movie elsewhere since you opened it, so nothing was'

/** An edit form open on a movie: what the live feed tells it instead of redrawing the movie. */
export interface OpenEdit {
  /** The movie was changed elsewhere: the form keeps what the person typed, a notice says so. */
  changed(movie: Movie): void
  /** The movie was deleted elsewhere. */
  deleted(): void
}

export function editActions(session: Session, view: ListView) {
  // The edit forms open, by movie id.
  const open = new Map<string, OpenEdit>()
  const showError = (form: MovieForm, error: unknown) => {
    if (MovieValidationError.is(error)) form.showErrors(error.issues)
    else if (error instanceof Cancelled) form.say('Not saved: the server needs its token.')
    else form.say(explain(error))
  }

  // The movie now stored, after a 412: undefined when it was deleted elsewhere (a 404). A read
  // that fails (the network, the store) throws: that is not a deletion.
  const latest = (id: string) => session.run('read the diary', (log) => log.getMovie(id))
  const unread = (error: unknown) =>
    error instanceof Cancelled ? 'The server needs its token to show it.' : explain(error)

  const goneElsewhere = (item: HTMLLIElement) => {
    item.remove()
    view.removed()
    view.say('Someone deleted this movie elsewhere; it is gone from the diary.')
    byId('diary').focus()
  }

  function edit(movie: Movie, item: HTMLLIElement): void {
    let current = movie
    // The version the feed last brought (shown on Cancel), and whether it was deleted elsewhere.
    let latestSeen = movie
    let gone = false
    // While a save is in flight a change is its own echo, or makes it meet a 412 that says so.
    let saving = false
    const notice = element('p', { class: 'notice', role: 'alert', hidden: '' })
    const tell = (text: string) => {
      notice.hidden = false
      notice.textContent = text
    }
    const watcher: OpenEdit = {
      changed(now) {
        latestSeen = now
        if (!saving)
          tell(
            `Someone changed this movie elsewhere while you were editing it; it now reads: ${describe(now)}. Your form keeps what you typed: Save shows you the version now stored first.`,
          )
      },
      deleted() {
        gone = true
        tell(
          'Someone deleted this movie elsewhere while you were editing it: it is gone from the diary. Cancel closes this form.',
        )
      },
    }
    open.set(movie.id, watcher)
    const close = () => {
      if (open.get(movie.id) === watcher) open.delete(movie.id)
    }
    const form = createMovieForm(
      `edit-${movie.id}`,
      'Save',
      async () => {
        try {
          saving = true
          // Only what the person changed: a field someone else changed meanwhile stays theirs.
          const saved = await session
            .run('change a movie', (log) =>
              log.updateMovie(movie.id, form.edits(), { ifMatch: versionOf(current) }),
            )
            .finally(() => {
              saving = false
            })
          close()
          const shown = view.render(saved)
          item.replaceWith(shown)
          shown.querySelector('button')?.focus()
          view.place(saved)
          view.say(`Saved “${saved.title}”.`)
        } catch (error) {
          if (!PreconditionFailedError.is(error)) return showError(form, error)
          notice.hidden = false
          try {
            const now = await latest(movie.id)
            if (!now) {
              close()
              return goneElsewhere(item)
            }
            // The next save applies the person's edits over the version now stored.
            current = now
            latestSeen = now
            form.rebase(now)
            notice.textContent = `${CHANGED_ELSEWHERE} saved. It now reads: ${describe(now)}. The form shows it with your edits: save again to apply them to this version, or cancel.`
          } catch (readError) {
            notice.textContent = `${CHANGED_ELSEWHERE} saved. ${unread(readError)}`
          }
          notice.focus()
        }
      },
      movie,
    )
    const cancel = element('button', { type: 'button' }, ['Cancel'])
    cancel.addEventListener('click', () => {
      close()
      if (gone) {
        item.remove()
        view.removed()
        view.say(`“${movie.title}” was deleted elsewhere; it is gone from the diary.`)
        byId('diary').focus()
        return
      }
      const shown = view.render(latestSeen)
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
      byId('diary').focus()
    } catch (error) {
      if (!PreconditionFailedError.is(error)) return view.say(explain(error))
      let now: Movie | undefined
      try {
        now = await latest(movie.id)
      } catch (readError) {
        return view.say(`${CHANGED_ELSEWHERE} deleted. ${unread(readError)}`)
      }
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
    /** The edit form open on the movie `id`, if one is. */
    editing: (id: string): OpenEdit | undefined => open.get(id),
    showError,
  }
}

function describe(movie: Movie): string {
  const notes = movie.notes ? `, notes “${movie.notes}”` : ''
  return `“${movie.title}” (${movie.releaseYear}), screened ${movie.screenedDate.replace('T', ' ').slice(0, 16)}${notes}`
}
