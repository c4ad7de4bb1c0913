/**
 * The words of a text, as search sees them: one tokenizer for every store, so a query finds the
 * same movies on each. A word is a run of letters and digits (Unicode `\p{L}`, `\p{N}`); case
 * is folded and accents dropped (NFD, then the combining marks `\p{M}` removed), so "Cinéma"
 * and "CINEMA" are one word. A script without spaces between words (Japanese, Chinese) gives one
 * word per run, so `千と千尋の神隠し` is found by its start (the last word of a query is a prefix).
 */

// Marks are removed before splitting: a letter's own mark never splits a word in two.
const MARKS = /\p{M}+/gu
const NOT_WORD = /[^\p{L}\p{N}]+/u

/** Longest `q` taken, in UTF-16 units: a search names a few words, not a document. */
export const Q_MAX = 1000

/** Most characters of a word kept in an index: a longer word is indexed by its start. */
export const WORD_MAX = 100

/** The words of `text`: folded, unaccented, each once, in their first order. */
export function wordsOf(text: string): string[] {
  const words = new Set<string>()
  for (const word of fold(text).split(NOT_WORD)) {
    if (word !== '') words.add(clip(word))
  }
  return [...words]
}

/**
 * What a search for `q` asks: every word of `whole` as a word, and a word starting with
 * `prefix` (the last word of `q`, which may be cut short). `undefined` when `q` has no word.
 */
export interface WordQuery {
  whole: string[]
  prefix: string
}

export function parseWordQuery(q: string): WordQuery | undefined {
  const words = fold(q)
    .split(NOT_WORD)
    .filter((word) => word !== '')
    .map(clip)
  const prefix = words.pop()
  if (prefix === undefined) return undefined
  // The prefix alone when a whole word repeats it (`heat heat`): a whole word is a prefix too.
  const whole = [...new Set(words)].sort()
  return { whole, prefix }
}

/** Whether a movie's words (`wordsOf` title and notes) answer the query. */
export function answers(words: readonly string[], query: WordQuery): boolean {
  const held = new Set(words)
  return (
    query.whole.every((word) => held.has(word)) &&
    words.some((word) => word.startsWith(query.prefix))
  )
}

// A stored movie is a frozen object that an edit replaces: its words are worked out once.
const wordsOfMovie = new WeakMap<object, string[]>()

/** The words of a movie: its title's and its notes', each once, then its tags' terms. */
export function movieWords(movie: {
  title: string
  notes: string
  tags?: readonly string[]
}): string[] {
  let words = wordsOfMovie.get(movie)
  if (!words) {
    words = wordsOf(`${movie.title}\n${movie.notes}`)
    // Tags are stored deduplicated (`cleanTags`), so their terms are distinct.
    for (const tag of movie.tags ?? []) words.push(tagTerm(tag))
    if (Object.isFrozen(movie)) wordsOfMovie.set(movie, words)
  }
  return words
}

/** The least string after every word that starts with `prefix`, in code-point (byte) order. */
export function afterPrefix(prefix: string): string {
  const points = Array.from(prefix)
  const last = (points.pop() as string).codePointAt(0) as number
  // Past the surrogates, which no UTF-8 text holds.
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1
  return points.join('') + String.fromCodePoint(next)
}

/**
 * A tag as the words' index holds it: `#`, the tag folded as a word is, its spaces as commas
 * (a run as one; stores split a movie's terms at spaces), and `,,`. A word is letters and digits
 * only, so no word is a tag's term; no tag holds a comma, so `,,` appears only at the end, and a
 * tag's term, as a search prefix, starts no other tag's term (`#horror,,` is not the start of
 * `#horror,comedy,,`). A tag filter is then a search for whole terms, on every store's index.
 *
 * @example
 * ```ts
 * tagTerm(' Cinéma  Club ') // '#cinema,club,,'
 * ```
 */
export function tagTerm(tag: string): string {
  return `#${fold(tag.trim()).split(SPACES).join(',')},,`
}

const SPACES = / +/

/**
 * The query of `q` (its words, or none) with tags' terms (`tagTerm`, at least one) as whole
 * terms: with no word in `q`, the last term serves as the prefix (a whole term is its own).
 */
export function withTags(query: WordQuery | undefined, terms: readonly string[]): WordQuery {
  if (query) return { whole: [...new Set([...query.whole, ...terms])].sort(), prefix: query.prefix }
  const prefix = terms.at(-1) as string
  return { whole: [...new Set(terms)].filter((term) => term !== prefix).sort(), prefix }
}

/** Case folded and accents dropped, as words and tags are compared. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase().normalize('NFC')
}

// By code points, so a long word is never cut inside a surrogate pair.
function clip(word: string): string {
  return word.length <= WORD_MAX ? word : Array.from(word).slice(0, WORD_MAX).join('')
}
