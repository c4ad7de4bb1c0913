/** The JSON Schemas of the rating and the tags, from the constants their rules use. */
import { BIDI_CONTROL, CONTROL_IN_TITLE } from '../../core/fields'
import { RATING_MAX, RATING_MIN, TAG_MAX_LENGTH, TAGS_MAX } from '../../core/rating-tags'
import { TAG_COUNTS_MAX } from '../../core/tag-counts'
import type { JsonSchema } from './components'

const refused = `,${CONTROL_IN_TITLE.source.slice(1, -1)}${BIDI_CONTROL.source.slice(1, -1)}`

export const rating: JsonSchema = {
  type: 'integer',
  minimum: RATING_MIN,
  maximum: RATING_MAX,
  description:
    'The rating, 1 to 10 (a page shows five stars with halves: 7 is three and a half). Absent when not rated.',
  examples: [7],
}

export const tags: JsonSchema = {
  type: 'array',
  maxItems: TAGS_MAX,
  description: `Up to ${TAGS_MAX} tags, each 1 to ${TAG_MAX_LENGTH} characters after trimming, with no comma, control or bidirectional characters; kept in order, a repeat of an earlier one (case and accents ignored) dropped. Absent when none; an empty list stores none.`,
  items: { type: 'string', pattern: `^[^${refused}]+$` },
  examples: [['festival', 'horror']],
}

/** In changes, `null` removes the field (JSON merge patch). */
export const removable = (schema: JsonSchema): JsonSchema => ({
  description: `${schema.description} \`null\` removes it.`,
  oneOf: [{ ...schema, description: undefined }, { type: 'null' }],
})

export const byRating: JsonSchema = {
  type: 'array',
  description: 'Ten counts of the rated screenings, rating 1 first.',
  items: { type: 'integer', minimum: 0 },
  minItems: 10,
  maxItems: 10,
}

export const tagCounts: JsonSchema = {
  type: 'array',
  maxItems: TAG_COUNTS_MAX,
  description: `The tags of the screenings counted, most first (ties in code-point order), at most ${TAG_COUNTS_MAX}; tags differing only in case, accents or spaces are one, named as written most often.`,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['tag', 'count'],
    properties: { tag: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
  },
}
