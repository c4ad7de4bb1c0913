/** A listing's tag filter (`listMovies({ tag })`), checked. */
import { InvalidPageRequestError } from './errors'
import { checkTags, trimmedTags } from './rating-tags'
import { tagTerm } from './words'

/**
 * The terms (`tagTerm`) of the tags a listing asks for, sorted and each once (so the same tags
 * in any order or case make one listing and one cursor), or an `InvalidPageRequestError`
 * naming `tag`: each must be a tag a movie could hold, at most 20 of them.
 */
export function tagTermsOf(tag: unknown): string[] {
  const tags = trimmedTags(typeof tag === 'string' ? [tag] : tag)
  const problem = checkTags(tags)
  if (problem !== true) {
    const message =
      problem === 'must be an array of strings' ? 'must be a tag or a list of tags' : problem
    throw new InvalidPageRequestError([{ path: 'tag', message }])
  }
  return [...new Set((tags as string[]).map(tagTerm))].sort()
}
