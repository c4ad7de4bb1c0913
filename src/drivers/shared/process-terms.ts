import type { Movie } from '../../core/movie'
import { type MovieTerms, type Repeat, type TallyRead, termsOf } from '../../core/tallies'
import { answers, movieWords, type WordQuery } from '../../core/words'

/**
 * A log's words and counters in one process, beside its movies (`memory/log-index.ts`): each word's
 * movie ids, the words in order (for a prefix), the month counters and each link's screenings.
 * Brought up to date by `countedTerms` in the synchronous step that reads them, so a search or
 * a count sees every change made before it.
 */
export interface MemoryTerms {
  words: Map<string, Set<string>>
  /** Every word held, in order: a prefix is a range of it. */
  vocabulary: string[]
  counts: Map<string, number>
  /** By link: its screenings in all, and by `title\tmonth`. */
  links: Map<string, { total: number; by: Map<string, number> }>
}

export function createMemoryTerms(): MemoryTerms {
  return { words: new Map(), vocabulary: [], counts: new Map(), links: new Map() }
}

/** Counts a movie in (`step` 1) or out (`step` -1). */
export function countTerms(terms: MemoryTerms, movie: Movie, step: 1 | -1): void {
  const found: MovieTerms = termsOf(movie)
  for (const word of found.words) {
    let ids = terms.words.get(word)
    if (!ids) {
      ids = new Set()
      terms.words.set(word, ids)
      terms.vocabulary.splice(firstNotBefore(terms.vocabulary, word), 0, word)
    }
    if (step === 1) ids.add(movie.id)
    else ids.delete(movie.id)
    if (ids.size === 0) {
      terms.words.delete(word)
      terms.vocabulary.splice(firstNotBefore(terms.vocabulary, word), 1)
    }
  }
  for (const key of found.tallies) change(terms.counts, key, step)
  let link = terms.links.get(found.link)
  if (!link) {
    link = { total: 0, by: new Map() }
    terms.links.set(found.link, link)
  }
  link.total += step
  change(link.by, `${found.title}\t${found.month}`, step)
  if (link.total === 0) terms.links.delete(found.link)
}

/** The ids of the movies that answer `query`, at most `limit`. */
export function searchTerms(
  terms: MemoryTerms,
  query: WordQuery,
  limit: number,
  byId: Map<string, Movie>,
): Movie[] {
  const whole: Set<string>[] = []
  for (const word of query.whole) {
    const ids = terms.words.get(word)
    if (!ids) return []
    whole.push(ids)
  }
  const prefixed: Set<string>[] = []
  const { vocabulary } = terms
  for (let at = firstNotBefore(vocabulary, query.prefix); at < vocabulary.length; at++) {
    const word = vocabulary[at] as string
    if (!word.startsWith(query.prefix)) break
    prefixed.push(terms.words.get(word) as Set<string>)
  }
  const found: Movie[] = []
  const keep = (id: string) => {
    found.push(byId.get(id) as Movie)
    return found.length >= limit
  }
  if (whole.length === 0) {
    const seen = new Set<string>()
    for (const ids of prefixed) {
      for (const id of ids) {
        if (seen.has(id)) continue
        seen.add(id)
        if (keep(id)) return found
      }
    }
    return found
  }
  // A prefix that starts one word only (a tag's term always) is that word, whole: it may be the
  // rarest term, and the rarest drives (two common tags rarely met read the fewer movies).
  if (prefixed.length === 1) whole.push(prefixed[0] as Set<string>)
  whole.sort((a, b) => a.size - b.size)
  const [smallest, ...others] = whole as [Set<string>, ...Set<string>[]]
  // Many words share the prefix: the movie's own words are quicker to ask than each word's ids.
  const hasPrefix =
    prefixed.length <= 8
      ? (id: string) => prefixed.some((ids) => ids.has(id))
      : (id: string) => answers(movieWords(byId.get(id) as Movie), query)
  for (const id of smallest) {
    if (others.every((ids) => ids.has(id)) && hasPrefix(id) && keep(id)) break
  }
  return found
}

/** The counters and repeats `stats` reads (all of them: a Map is read in place). */
export function tallyTerms(terms: MemoryTerms): TallyRead {
  const repeats: Repeat[] = []
  for (const [link, { total, by }] of terms.links) {
    if (total < 2) continue
    for (const [key, count] of by) {
      const [title = '', month = ''] = key.split('\t')
      repeats.push({ link, title, month, count })
    }
  }
  return { counts: terms.counts, repeats }
}

function change(counts: Map<string, number>, key: string, step: number): void {
  const count = (counts.get(key) ?? 0) + step
  if (count === 0) counts.delete(key)
  else counts.set(key, count)
}

function firstNotBefore(sorted: string[], word: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((sorted[middle] as string) < word) low = middle + 1
    else high = middle
  }
  return low
}
