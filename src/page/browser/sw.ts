/**
 * The page's service worker: keeps the page and its assets (a cache named by their hashes), and
 * gives them back when the server or the network is gone. Network first for the page, so an
 * online visit always gets the page now served; the hashed assets never change, so cache first.
 * The diary last seen and the adds waiting to be sent are the page's own (IndexedDB, ./outbox.ts,
 * per person): this worker never handles a call to the API, so nothing it keeps is a person's.
 */
interface Shell {
  version: string
  page: string
  assets: string[]
}
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void
}
interface FetchEvent extends ExtendableEvent {
  request: Request
  respondWith(response: Promise<Response>): void
}
interface WorkerScope {
  MOVIE_LOG_SHELL: Shell
  skipWaiting(): Promise<void>
  clients: { claim(): Promise<void> }
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void
}

const scope = self as unknown as WorkerScope
// Prepended by the handler that serves this script: the page's URL and its assets.
const shell = scope.MOVIE_LOG_SHELL
const CACHE = `movie-log-page-${shell.version}`
const pages = new Set([shell.page, `${shell.page}index.html`, shell.page.replace(/(.)\/$/, '$1')])

scope.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) =>
        // As a browser asks for it: the server's `/` answers JSON callers with a pointer instead.
        cache.addAll([
          new Request(shell.page, { headers: { accept: 'text/html' } }),
          ...shell.assets,
        ]),
      )
      .then(() => scope.skipWaiting()),
  )
})

scope.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith('movie-log-page-') && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => scope.clients.claim()),
  )
})

scope.addEventListener('fetch', (event) => {
  const { request } = event
  const url = new URL(request.url)
  if (request.method !== 'GET' || url.origin !== location.origin) return
  if (shell.assets.includes(url.pathname)) {
    event.respondWith(caches.match(request).then((kept) => kept ?? fetch(request)))
  } else if (request.mode === 'navigate' && pages.has(url.pathname)) {
    event.respondWith(pageFrom(request))
  }
})

async function pageFrom(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE)
  try {
    const response = await fetch(request)
    if (response.ok) await cache.put(shell.page, response.clone())
    return response
  } catch (error) {
    // The page answers JSON callers too (the server's `/`): its Vary names Accept.
    const kept = await cache.match(shell.page, { ignoreVary: true })
    if (kept) return kept
    throw error
  }
}
