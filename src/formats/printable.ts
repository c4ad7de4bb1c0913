/** Text from an import file, made safe to print on the operator's terminal. */

// Control, format (bidirectional overrides among them), separator and lone surrogate characters:
// an escape sequence in a field name would write to the screen, a bidi override reorder it.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu

/**
 * `text` as one printable line: each control or format character escaped as `\u001b`, and cut
 * at `max` characters with `…`, so a hostile name neither writes to the screen nor fills it.
 */
export function printable(text: string, max = 64): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text
  return cut.replace(UNPRINTABLE, (char) => {
    const code = char.codePointAt(0) as number
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
}

/** `items` each shown by `show`, joined by `separator`; past `most`, `and N more`. */
export function listed<T>(
  items: readonly T[],
  show: (item: T) => string,
  { most = 10, separator = ', ' } = {},
): string {
  const shown = items.slice(0, most).map(show)
  if (items.length > most) shown.push(`and ${items.length - most} more`)
  return shown.join(separator)
}
