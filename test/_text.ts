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
