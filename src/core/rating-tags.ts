/**
 * The two optional fields (CONTRACT "The fields"): `rating`, an integer 1-10, and `tags`, a
 * short list of labels. A movie without them has neither key, so it is stored, answered and
 * tagged (`versionOf`) exactly as before they existed.
 */
import { BIDI_CONTROL, type Check, CONTROL_IN_TITLE } from './fields'
import { tagTerm } from './words'

export const RATING_MIN = 1
export const RATING_MAX = 10
export const TAGS_MAX = 20
export const TAG_MAX_LENGTH = 40

export const checkRating: Check = (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= RATING_MIN && value <= RATING_MAX
    ? true
    : `must be a whole number from ${RATING_MIN} to ${RATING_MAX} (a JSON integer)`

/** Why one tag, trimmed, is refused, or `undefined` when it is fine. */
function tagProblem(tag: unknown): string | undefined {
  if (typeof tag !== 'string') return 'must be a string'
  const length = [...tag].length
  if (length === 0) return 'must not be empty (white space alone does not count)'
  if (length > TAG_MAX_LENGTH) return `must be at most ${TAG_MAX_LENGTH} characters`
  // A comma separates tags in CSV and in Letterboxd's exports: one inside would split the tag.
  if (tag.includes(',')) return 'must not contain a comma'
  if (CONTROL_IN_TITLE.test(tag) || BIDI_CONTROL.test(tag)) {
    return 'must not contain control or bidirectional override or isolate characters'
  }
  return undefined
}

/** The tags as given, each trimmed (what `checkTags` and `cleanTags` look at). */
export const trimmedTags = (value: unknown) =>
  Array.isArray(value) ? value.map((tag) => (typeof tag === 'string' ? tag.trim() : tag)) : value

export const checkTags: Check = (value) => {
  if (!Array.isArray(value)) return 'must be an array of strings'
  if (value.length > TAGS_MAX) return `must hold at most ${TAGS_MAX} tags (it has ${value.length})`
  for (let index = 0; index < value.length; index++) {
    const problem = tagProblem(value[index])
    if (problem) return `tag ${index + 1} ${problem}`
  }
  return true
}

/**
 * Checked tags, trimmed, without the repeats of an earlier one (case and accents ignored), in
 * their order; `undefined` for none, which leaves the key out of the movie.
 */
export function cleanTags(tags: readonly string[]): string[] | undefined {
  const seen = new Set<string>()
  const kept: string[] = []
  for (const tag of tags) {
    const trimmed = tag.trim()
    const key = tagTerm(trimmed)
    if (seen.has(key)) continue
    seen.add(key)
    kept.push(trimmed)
  }
  return kept.length > 0 ? kept : undefined
}
