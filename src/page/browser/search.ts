/**
 * The search box: the list follows what is typed (after a pause), Enter searches at once,
 * Escape clears, and the words are in the address (`?q=`) so a search can be shared, kept as a
 * bookmark, reloaded, and found again with back and forward.
 */

// Long enough to let a word be typed, short enough to feel as-you-type.
const PAUSE_MS = 250

/** The words in the address (`?q=`), '' for none. */
const inAddress = () => new URLSearchParams(location.search).get('q')?.trim() ?? ''

/**
 * Gives life to `input`; `search` is called with the words (trimmed, '' for none) each time
 * they change. Returns the words the page opened with and `now()`, which searches at once
 * (true when the words changed, and so the list is read again).
 */
export function createSearch(input: HTMLInputElement, search: (q: string) => void) {
  let shown = inAddress()
  let pending: ReturnType<typeof setTimeout> | undefined
  input.value = shown

  /** Searches for the words typed, unless they are those shown; says whether it did. */
  function settle(fromHistory = false): boolean {
    clearTimeout(pending)
    const q = input.value.trim()
    if (q === shown) return false
    shown = q
    if (!fromHistory) {
      const url = new URL(location.href)
      if (q) url.searchParams.set('q', q)
      else url.searchParams.delete('q')
      history.pushState(null, '', url)
    }
    search(q)
    return true
  }

  input.addEventListener('input', () => {
    clearTimeout(pending)
    pending = setTimeout(() => settle(), PAUSE_MS)
  })
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !input.value) return
    event.preventDefault()
    input.value = ''
    settle()
  })
  addEventListener('popstate', () => {
    input.value = inAddress()
    settle(true)
  })
  return { initial: shown, now: () => settle() }
}
