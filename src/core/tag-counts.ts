/** The `tags` of `stats`: how many screenings carry each tag. */
import { byCodePoint } from './driver'
import { tagTerm } from './words'

/**
 * A tag and the screenings that carry it, within the months counted.
 *
 * @example
 * ```ts
 * const [top]: TagCount[] = (await log.stats({ from: '2024' })).tags
 * ```
 */
export interface TagCount {
  tag: string
  count: number
}

/** Most tags `stats` names: a year in review shows the top few, not a diary's every label. */
export const TAG_COUNTS_MAX = 100

/**
 * The tags counted (as the counters keep them, spaces as commas) merged where only case,
 * accents or spaces differ (`Horror`, `horror`), each shown as written most often (ties: the
 * first in code-point order); most first, ties in code-point order, at most TAG_COUNTS_MAX.
 */
export function tagCounts(counted: Map<string, number>): TagCount[] {
  const byTerm = new Map<string, { count: number; best: string; bestCount: number }>()
  for (const [kept, count] of counted) {
    if (count <= 0) continue
    const tag = kept.replaceAll(',', ' ')
    const term = tagTerm(tag)
    const seen = byTerm.get(term)
    if (!seen) {
      byTerm.set(term, { count, best: tag, bestCount: count })
      continue
    }
    seen.count += count
    if (count > seen.bestCount || (count === seen.bestCount && byCodePoint(tag, seen.best) < 0)) {
      seen.best = tag
      seen.bestCount = count
    }
  }
  return [...byTerm.values()]
    .map(({ best, count }) => ({ tag: best, count }))
    .sort((a, b) => b.count - a.count || byCodePoint(a.tag, b.tag))
    .slice(0, TAG_COUNTS_MAX)
}
