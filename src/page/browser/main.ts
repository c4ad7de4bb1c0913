/**
 * The diary page: the movies latest screened first, a page at a time, filtered by year and
 * searched by words, and the year in review. With
 * the server out of reach, the diary last seen on this device, and adds kept until it is back.
 */
import {
  createCatalogClient,
  importFile,
  MovieLogHttpError,
  StoreUnavailableError,
} from '../../client/index'
import { createAdds } from './adds'
import { editActions } from './changes'
import { connectTrakt, showWebhooks } from './connect'
import { byId } from './dom'
import { explain } from './explain'
import { followChanges } from './live'
import { ADD_LABEL, createMovieForm } from './movie-form'
import { movieItem } from './movie-item'
import { openOutbox } from './outbox'
import { createReview } from './review'
import { createSearch } from './search'
import { suggestTitles } from './suggest'
import { createTagChoices } from './tag-choices'
import { SUGGESTIONS } from './tags'
import { Cancelled, createSession } from './token'

const PAGE_SIZE = 20
// The import panel's script (import-panel.ts), its hashed name set by the build.
declare const IMPORT_PANEL: string
declare const SHARE_CONTROL: string
// Set by the handler that serves the page: where the log is, and where the page is mounted.
const meta = (name: string) =>
  document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? ''
const logUrl = new URL(meta('movie-log-api') || '/movies', location.href).href
const base = meta('movie-log-base')
// What the page keeps is the person's whose token it holds: a first token given, its own outbox.
const mine = () => openOutbox(logUrl, session.person())
const session = createSession(logUrl, () => {
  outbox = mine()
  void adds.showWaiting()
  showWebhooks(logUrl, session.token())
})
showWebhooks(logUrl, session.token())
connectTrakt(logUrl, session)
let outbox = mine()
const list = byId<HTMLOListElement>('movies')
const more = byId<HTMLButtonElement>('more')
const empty = byId<HTMLParagraphElement>('empty')
const status = byId<HTMLParagraphElement>('status')
const banner = byId<HTMLParagraphElement>('offline')
const yearInput = byId<HTMLInputElement>('year')

// What is shown: the year filter (none: every year), the tag filter (none: every tag), the
// words searched (none: every movie) and where the next page starts.
let year = ''
let tag = ''
const tagChoices = createTagChoices(session, byId('tag'), byId(SUGGESTIONS), (picked) => {
  tag = picked
  void load(false)
})
const search = createSearch(byId<HTMLInputElement>('q'), (words) => {
  query = words
  void load(false)
})
let query = search.initial
let cursor: string | null = null
let offline = false
// Each read of the list is numbered: one overtaken by a later one (typing on) is not shown.
let reads = 0

const say = (message: string) => {
  status.textContent = message
}
const actions = editActions(session, {
  render: (movie, notice) => movieItem(movie, actions, notice),
  say,
  removed: () => showEmpty(),
  place: (movie) => live.place(movie),
})

/** Says whether the server is out of reach; `seenAt`, when the diary shown was last read. */
function setOffline(now: boolean, seenAt?: number): void {
  offline = now
  banner.hidden = !now
  if (!now) {
    adds.reached()
    return
  }
  live.stop()
  const when = seenAt
    ? `This is your diary as last seen here on ${new Date(seenAt).toLocaleString()}.`
    : 'This device has not seen your diary yet.'
  banner.textContent = `Offline: the server cannot be reached. ${when} Movies you add are kept on this device and sent when it is back; edits and deletes need it.`
}

/** Shows the first page (`append` false) or the next one, latest screened first. */
function load(append: boolean): Promise<void> {
  live.start() // offline, it fails and waits; the page's offline state then stops it
  return live.during(() => read(append))
}

async function read(append: boolean): Promise<void> {
  say('Loading…')
  const range = year ? { from: year, to: year } : {}
  const words = query ? { q: query } : {}
  const tagged = tag ? { tag } : {}
  const read = ++reads
  try {
    const page = await session.run('read the diary', (log) =>
      log.listMovies({
        sort: '-screenedDate',
        ...range,
        ...words,
        ...tagged,
        limit: PAGE_SIZE,
        cursor: append ? cursor : null,
      }),
    )
    if (read !== reads) return
    setOffline(false)
    if (!append && !filtered())
      void outbox.saveDiary({ movies: page.movies, at: Date.now() }).catch(() => {})
    if (!append) list.replaceChildren()
    const firstNew = page.movies[0]
    for (const movie of page.movies) list.append(movieItem(movie, actions))
    cursor = page.nextCursor
    more.hidden = cursor === null
    showEmpty()
    say(append ? `${page.movies.length} more shown.` : found(page.movies.length))
    // After "More", the keyboard continues at the first movie it brought.
    if (append && firstNew)
      list.querySelector<HTMLElement>(`[data-id="${firstNew.id}"] button`)?.focus()
  } catch (error) {
    if (read !== reads) return
    if (StoreUnavailableError.is(error) && !append && !filtered()) return showLastSeen()
    say(error instanceof Cancelled ? 'The diary needs the token to be shown.' : explain(error))
  }
}

// Whether the list shows less than the whole diary (what the device keeps is the whole).
const filtered = () => Boolean(year || query || tag)
// Which movies are shown, in words: " tagged “horror” screened in 2024".
const which = () => `${tag ? ` tagged “${tag}”` : ''}${year ? ` screened in ${year}` : ''}`

/** What a first page shows, in words for the status region (read out by screen readers). */
function found(count: number): string {
  const where = which()
  if (!query) return where ? `Showing movies${where}.` : ''
  const more = cursor === null ? '' : ' (More for the rest)'
  const movies = count === 1 ? 'movie' : 'movies'
  return `${count}${cursor === null ? '' : '+'} ${movies}${where} matching “${query}”${more}.`
}

// The server is out of reach: the diary as this device last saw it, and a retry scheduled.
async function showLastSeen(): Promise<void> {
  const seen = await outbox.lastDiary().catch(() => undefined)
  setOffline(true, seen?.at)
  list.replaceChildren(...(seen?.movies ?? []).map((movie) => movieItem(movie, actions)))
  cursor = null
  more.hidden = true
  showEmpty()
  say('')
  adds.retrySoon()
}

function showEmpty(): void {
  empty.hidden = list.children.length > 0
  empty.textContent = query
    ? `No movie${which()} matches “${query}”. Try other words, or clear the search (Escape).`
    : year || tag
      ? `No movie${which()}. Choose another year or tag, or show them all.`
      : 'Your diary is empty. Add the first movie you screened with the form above: its title, when you saw it, its release year and its IMDb page.'
}

// The add form is in the page as served (no shift as the script runs); this gives it life.
const form = createMovieForm(
  'add',
  ADD_LABEL,
  (values) => void adds.add(values),
  undefined,
  byId('add'),
)
// Its title suggests IMDb entries, asked with the token of the moment; a suggestion lost is
// not asked again (the next key asks anew).
suggestTitles(form.form, () => {
  const token = session.token()
  return createCatalogClient(logUrl, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    retries: 0,
  })
})
const adds = createAdds(session, () => outbox, {
  form,
  waiting: byId('waiting'),
  say,
  showError: actions.showError,
  isOffline: () => offline,
  lost: () => {
    if (!offline) setOffline(true)
  },
  reload: () => load(false),
})

// Changes made elsewhere, shown as they come; the feed is left while the page is offline.
const live = followChanges(session, {
  list,
  render: (movie) => movieItem(movie, actions),
  year: () => year,
  searched: () => query !== '' || tag !== '',
  heard: () => {
    review.refresh()
    void tagChoices.refresh()
  },
  complete: () => cursor === null && !offline,
  editing: actions.editing,
  changed: showEmpty,
  say,
  reload: () => load(false),
})

byId<HTMLFormElement>('filter').addEventListener('submit', (event) => {
  event.preventDefault()
  const wanted = yearInput.value.trim()
  if (wanted && !/^\d{4}$/.test(wanted)) {
    say('A year has four digits, 2024 say.')
    yearInput.setAttribute('aria-invalid', 'true')
    return
  }
  yearInput.removeAttribute('aria-invalid')
  const searching = search.now() // Enter in the search box: the words at once
  if (wanted === year && searching) return
  year = wanted
  void load(false)
})
byId('all-years').addEventListener('click', () => {
  yearInput.value = ''
  year = ''
  void load(false)
})
const review = createReview(session, byId('review'))
// The share control's code (./share.ts with ./webhooks.ts, a bundle of its own) comes when it is first opened.
byId('share').addEventListener(
  'toggle',
  () =>
    void import(`${base}/assets/${SHARE_CONTROL}`).then((share: typeof import('./share')) =>
      share.showShare(byId<HTMLDetailsElement>('share'), logUrl, base, session, MovieLogHttpError),
    ),
  { once: true },
)
// The import panel's script is loaded when it is first opened: most visits never import.
const importPanel = byId<HTMLDetailsElement>('import')
importPanel.addEventListener(
  'toggle',
  async () => {
    const panel: typeof import('./import-panel') = await import(`${base}/assets/${IMPORT_PANEL}`)
    panel.showImportPanel(importPanel, {
      logUrl,
      session,
      importFile,
      explain: (error) =>
        error instanceof Cancelled ? 'The import needs your token.' : explain(error),
      reload: () => void load(false),
    })
  },
  { once: true },
)
more.addEventListener('click', () => void load(true))
addEventListener('online', () => {
  live.start()
  void adds.retry()
})
addEventListener('offline', () => live.stop())

void adds.showWaiting()
// Adds left waiting by an earlier visit go once the diary shows the server is there.
void load(false).then(() => {
  if (offline) return
  void adds.retry()
  void tagChoices.refresh()
})
// The worker keeps the page for offline visits; the page works without it. Registered once the
// page has loaded, so that its install does not compete with the first view.
const registerWorker = () =>
  navigator.serviceWorker?.register(`${base}/sw.js`, { scope: base || '/' }).catch(() => {})
if (document.readyState === 'complete') void registerWorker()
else addEventListener('load', () => void registerWorker(), { once: true })
