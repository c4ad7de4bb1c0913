/**
 * How the catalog compares titles: case, accents and punctuation ignored, so that "Amélie",
 * "AMELIE" and "Amelie!" are one key. Loading and finding use this one function, so a key
 * written at load is the key a question looks up.
 */

// Letters that Unicode does not decompose into a base letter and a mark.
const FOLDED: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  þ: 'th',
}

/**
 * The key of a title: lower case, accents dropped, `&` read as "and", every run of other
 * characters than letters and digits one space, none at the ends.
 *
 * @example
 * ```ts
 * catalogKey('Amélie (Le Fabuleux Destin…)') // 'amelie le fabuleux destin'
 * ```
 */
export function catalogKey(title: string): string {
  return title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøđłþ]/g, (letter) => FOLDED[letter] as string)
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/**
 * The smallest string above every key that starts with `key`: the end of the range an index
 * walks for "titles starting with these words" (keys compare as UTF-8 bytes, which keep the
 * order of code points).
 *
 * @example
 * ```ts
 * keyRangeEnd('dune') // 'dunf'
 * ```
 */
export function keyRangeEnd(key: string): string {
  const last = key.codePointAt(key.length - 1) as number
  const width = last > 0xffff ? 2 : 1
  return key.slice(0, key.length - width) + String.fromCodePoint(last + 1)
}
