/** The parts of the document for listings by date and for conditional requests. */
type JsonSchema = Record<string, unknown>

const PERIOD = '^[0-9]{4}(-[0-9]{2}(-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3})?)?)?$'

const bound = (name: 'from' | 'to', description: string): JsonSchema => ({
  name,
  in: 'query',
  description: `${description} \`YYYY\`, \`YYYY-MM\`, \`YYYY-MM-DD\` or \`YYYY-MM-DDThh:mm:ss.SSS\`, a real date; otherwise 400 naming \`${name}\`.`,
  schema: { type: 'string', pattern: PERIOD },
  examples: { year: { value: '2024' }, month: { value: '2024-06' } },
})

export const LISTING_PARAMETERS: Record<string, JsonSchema> = {
  sort: {
    name: 'sort',
    in: 'query',
    description:
      '`added` (default: oldest added first), `screenedDate` (earliest screened first) or `-screenedDate` (latest first); ties in id order, in the same direction. Kept by the next link; another value with a cursor: 400 naming `cursor`.',
    schema: { type: 'string', enum: ['added', 'screenedDate', '-screenedDate'] },
  },
  from: bound('from', 'Earliest screenedDate listed, from the first moment of the period named.'),
  to: bound('to', 'Latest screenedDate listed, to the last millisecond of the period named.'),
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    description:
      'Change only if the movie is still this version: its `ETag` (or several, or `*`: only if it exists). Otherwise 412, and nothing is changed.',
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description:
      'The `ETag` of the copy the client has: 304 while the movie is still that version.',
    schema: { type: 'string' },
  },
}

export const ETAG_HEADER: JsonSchema = {
  description:
    'The movie’s version tag, quoted: derived from its content, the same on every server.',
  required: true,
  schema: { type: 'string', pattern: '^"[0-9a-f]{16}"$' },
}
