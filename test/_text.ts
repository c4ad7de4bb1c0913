import fc from 'fast-check'

const SURROGATES = 0x800

/**
 * Any one code point but the 2,048 surrogates (never valid alone): what fast-check's
 * `unit: 'binary'` gives, without the second or more its first use takes in each worker (it
 * builds a reverse table of all 1.1 million code points).
 */
const anyCodePoint = fc
  .integer({ min: 0, max: 0x10ffff - SURROGATES })
  .map((code) => String.fromCodePoint(code < 0xd800 ? code : code + SURROGATES))

/** Any text of code points, as `fc.string({ unit: 'binary', ...constraints })`. */
export const anyText = (constraints: Omit<fc.StringConstraints, 'unit'> = {}) =>
  fc.string({ ...constraints, unit: anyCodePoint })

// fast-check's webPath and webUrl build the same kind of table for the percent-encoding of every
// code point, about a second per worker for each set of characters a part allows. These draw
// the same shapes from the characters RFC 3986 allows as they are and percent-encoded bytes.
const UNRESERVED = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~']
const SUB_DELIMS = [..."!$&'()*+,;="]
const percentEncoded = fc
  .integer({ min: 0, max: 255 })
  .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
const charOf = (...extra: string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...UNRESERVED, ...SUB_DELIMS, ...extra) },
    { weight: 1, arbitrary: percentEncoded },
  )
const segment = fc.string({ unit: charOf(':', '@'), maxLength: 12 })
const queryOrFragment = fc.string({ unit: charOf(':', '@', '/', '?'), maxLength: 20 })

/** A URL path (`''`, or `/` and segments), as `fc.webPath()` draws them. */
export const webPath = () =>
  fc.array(segment, { maxLength: 5 }).map((segments) => segments.map((s) => `/${s}`).join(''))

/**
 * A web URL, as `fc.webUrl(options)` draws them (a domain, a path, maybe a query and a
 * fragment), and most with a port, which fast-check's draws only when asked to.
 */
export const webUrl = ({
  validSchemes = ['http', 'https'],
  withQueryParameters = false,
  withFragments = false,
} = {}) =>
  fc
    .tuple(
      fc.constantFrom(...validSchemes),
      fc.domain(),
      fc.option(fc.integer({ min: 0, max: 65535 })),
      webPath(),
      withQueryParameters ? fc.option(queryOrFragment) : fc.constant(null),
      withFragments ? fc.option(queryOrFragment) : fc.constant(null),
    )
    .map(
      ([scheme, domain, port, path, query, fragment]) =>
        `${scheme}://${domain}${port === null ? '' : `:${port}`}${path}` +
        `${query === null ? '' : `?${query}`}${fragment === null ? '' : `#${fragment}`}`,
    )
