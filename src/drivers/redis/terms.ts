/**
 * Search and statistics on Redis: each movie's terms (`termsOf`) counted by the very script that
 * writes the movie, in keys of the owner's hash tag (so one cluster slot, as every key of a log):
 *
 * ```
 * {tag}:word:<word>     set of the ids of the movies holding the word
 * {tag}:wd:<word>       its movies again, as `screenedDate|id` at score 0: by date (lexical)
 * {tag}:wi:<word>       and as `id screenedDate`: in the order added (a space sorts before any
 *                       character of an id, so a shorter id first), each with its screening
 * {tag}:words           sorted set of the words held, at score 0 (a prefix is a lexical range)
 * {tag}:tallies         hash of the month counters, `YYYY-MM|kind|value` -> n
 * {tag}:links           sorted set of links scored by their screenings (2 and up: rewatched)
 * {tag}:seen:<link>     hash of a link's screenings, `YYYY-MM\ttitle` -> n
 * {tag}:counted         set of the ids whose terms are counted
 * {tag}:paged           set of the ids whose words are in `wd:` and `wi:` too
 * {tag}:pending         set of the ids added since, their terms not counted yet
 * ```
 *
 * An add leaves its terms to the next search or count, as memory and SQLite do: its id joins
 * `pending`, and a read script answers nil until every id is counted, so the reader counts the
 * pending movies in (`COUNT_PENDING`, in batches) and reads again. An id is in at most one of
 * `pending` and `counted`, so the ids in neither are those an older movie-log wrote before
 * these keys: counted once, movie by movie (`COUNT_ONE`), while writers go on. The scripts are
 * in redis/lua/terms.ts.
 */

import type { Movie } from '../../core/movie'
import { termsOf } from '../../core/tallies'

/** A movie's terms as the scripts read them: lines of words, counters, link, month, title. */
export function termsLines(movie: Movie): string {
  const terms = termsOf(movie)
  // No line break in any: words are letters and digits, a title holds no control character.
  return [
    terms.words.join(' '),
    terms.tallies.join(' '),
    terms.link,
    terms.month,
    terms.title,
    movie.screenedDate,
  ].join('\n')
}
