/**
 * Adding movies, online or not. Each add is kept in the outbox (IndexedDB) with the
 * Idempotency-Key chosen when it was made before it is first sent, and leaves it once the
 * server has answered: an add whose answer was lost, or made while the server was away, is
 * sent again (after a reload too) with the same key, so it makes one movie. An add waiting is
 * sent with the token it was kept under (its person's outbox) or not at all: never re-asked.
 */
import { type Movie, StoreUnavailableError } from '../../client/index'
import { element } from './dom'
import { explain } from './explain'
import type { MovieForm } from './movie-form'
import type { Outbox, WaitingAdd } from './outbox'
import { Cancelled, type Session } from './token'

export interface AddsView {
  form: MovieForm
  /** Where the waiting adds are listed (hidden when none). */
  waiting: HTMLElement
  say(message: string): void
  showError(form: MovieForm, error: unknown): void
  isOffline(): boolean
  /** The server could not be reached. */
  lost(): void
  /** Shows the diary again: after adds were sent, or to see whether the server is back. */
  reload(): Promise<void>
}

const FIRST_RETRY_MS = 1000
const LAST_RETRY_MS = 8000

/** `outbox`: the outbox of the person now signed in. */
export function createAdds(session: Session, outbox: () => Outbox, view: AddsView) {
  let timer: ReturnType<typeof setTimeout> | undefined
  let delay = FIRST_RETRY_MS
  let flushing: Promise<'sent' | 'unreachable' | 'idle'> | undefined
  const inFlight = new Set<string>()
  const titleOf = (add: WaitingAdd) => String(add.values.title ?? 'the movie')

  // `box`: where the add is kept. `pinned` for an add that waited: a refused token is not
  // replaced, since the person now asked may not be the one who made it.
  const send = async (add: WaitingAdd, box: Outbox, pinned?: boolean): Promise<Movie> => {
    inFlight.add(add.key)
    try {
      const movie = await session.run(
        'add a movie',
        (log) => log.addMovie(add.values as never, { idempotencyKey: add.key }),
        pinned,
      )
      await box.sent(add.key).catch(() => {})
      return movie
    } finally {
      inFlight.delete(add.key)
    }
  }

  /** Lists the adds waiting to be sent, oldest first. */
  async function showWaiting(): Promise<void> {
    const adds = await outbox()
      .waiting()
      .catch(() => [])
    const list = view.waiting.querySelector('ol') as HTMLOListElement
    list.replaceChildren(
      ...adds.map((add) =>
        element('li', { class: 'movie waiting', 'data-key': add.key }, [
          element('h3', {}, [
            titleOf(add),
            ' ',
            element('span', { class: 'year' }, [`(${String(add.values.releaseYear ?? '?')})`]),
          ]),
          element('p', { class: 'meta' }, ['Waiting to be sent: kept on this device.']),
        ]),
      ),
    )
    view.waiting.hidden = adds.length === 0
  }

  function retrySoon(): void {
    clearTimeout(timer)
    timer = setTimeout(() => void retry(), delay)
    delay = Math.min(delay * 2, LAST_RETRY_MS)
  }

  /** Sends the waiting adds, oldest first, stopping at the first that cannot be delivered. */
  function flush(): Promise<'sent' | 'unreachable' | 'idle'> {
    flushing ??= (async () => {
      let sent = 0
      const box = outbox()
      for (const add of await box.waiting().catch(() => [])) {
        if (inFlight.has(add.key)) continue
        try {
          await send(add, box, true)
          sent++
        } catch (error) {
          if (StoreUnavailableError.is(error)) return 'unreachable'
          if (error instanceof Cancelled) return 'idle'
          // Refused (the form's checks are the server's, the token the add's own): nothing more
          // will change its answer.
          await box.sent(add.key)
          view.say(`“${titleOf(add)}” was not added: ${explain(error)}`)
        }
      }
      return sent > 0 ? 'sent' : 'idle'
    })().finally(() => {
      flushing = undefined
      void showWaiting()
    })
    return flushing
  }

  async function retry(): Promise<void> {
    const outcome = await flush()
    if (outcome === 'unreachable') {
      view.lost()
      return retrySoon()
    }
    if (outcome === 'sent' || view.isOffline()) await view.reload()
  }

  async function add(values: Record<string, unknown>): Promise<void> {
    const made: WaitingAdd = { key: crypto.randomUUID(), values, madeAt: Date.now() }
    // A browser that keeps nothing for the page (storage refused): the add is sent all the same,
    // once, and nothing waits.
    const box = outbox()
    const keeping = await box.keep(made).then(
      () => true,
      () => false,
    )
    const kept = () => {
      if (!keeping) {
        view.form.say(
          'Not added: the server cannot be reached, and this browser does not let the page keep it.',
        )
        return
      }
      view.form.clear()
      view.say(`Kept on this device: “${titleOf(made)}” will be added when the server is back.`)
      void showWaiting()
      retrySoon()
    }
    if (view.isOffline()) return kept()
    try {
      const movie = await send(made, box)
      view.form.clear()
      view.say(`Added “${movie.title}”.`)
      await view.reload()
    } catch (error) {
      if (StoreUnavailableError.is(error)) {
        view.lost()
        return kept()
      }
      await box.sent(made.key).catch(() => {})
      if (error instanceof Cancelled) view.form.say('Not added: the server needs its token.')
      else view.showError(view.form, error)
    }
  }

  return {
    add,
    showWaiting,
    retrySoon,
    /** Sends what waits now (the page opened, the browser back online). */
    retry,
    /** The server answered: the next wait starts short again. */
    reached(): void {
      delay = FIRST_RETRY_MS
    },
  }
}
