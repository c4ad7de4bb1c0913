/**
 * The person's own tags, as the server counts them (`stats().tags`, most used first): offered
 * in the tag filter beside the year, and suggested in the forms' tags field.
 */
import type { MovieLog } from '../../client/index'
import { element } from './dom'
import type { Session } from './token'

/** The counts `stats` answers, with the tags and ratings (issue 57). */
export type TagStats = Awaited<ReturnType<MovieLog['stats']>> & {
  byRating?: number[]
  tags?: { tag: string; count: number }[]
}

/**
 * Gives life to the filter's `select` and fills `suggestions` (the forms' `<datalist>`);
 * `picked` is called with the tag chosen ('' for every tag).
 */
export function createTagChoices(
  session: Session,
  select: HTMLSelectElement,
  suggestions: HTMLDataListElement,
  picked: (tag: string) => void,
) {
  select.addEventListener('change', () => picked(select.value))
  // Each count is numbered: one overtaken by a later one (another change) is not shown.
  let reads = 0
  return {
    /** Reads the person's tags again (the diary was shown, or changed). */
    async refresh(): Promise<void> {
      const read = ++reads
      const stats: TagStats | undefined = await session
        .run('read your tags', (log) => log.stats())
        .catch(() => undefined) // offered again on the next change; the list says what failed
      if (!stats || read !== reads) return
      const tags = stats.tags ?? []
      const chosen = select.value
      const options = tags.map(({ tag, count }) =>
        element('option', { value: tag }, [`${tag} (${count})`]),
      )
      // The tag shown stays offered after its last movie loses it, until another is picked.
      if (chosen && !tags.some(({ tag }) => tag === chosen))
        options.push(element('option', { value: chosen }, [chosen]))
      select.replaceChildren(element('option', { value: '' }, ['All tags']), ...options)
      select.value = chosen
      suggestions.replaceChildren(...tags.map(({ tag }) => element('option', { value: tag })))
    },
  }
}
