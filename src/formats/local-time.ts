/** An instant as local time in an IANA time zone, in the log's `screenedDate` form. */

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? ''
  let formatter = formatters.get(key)
  if (!formatter) {
    // Throws a RangeError for a zone the runtime does not know: checkTimeZone turns it into words.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
    })
    formatters.set(key, formatter)
  }
  return formatter
}

/**
 * `YYYY-MM-DDThh:mm:ss.SSS`: the wall-clock time at `instant` in `timeZone` (an IANA name;
 * `undefined`, the runtime's own zone).
 *
 * @example
 * ```ts
 * localTimeOf(Date.UTC(2024, 5, 1, 18, 30), 'Europe/Paris') // '2024-06-01T20:30:00.000'
 * ```
 */
export function localTimeOf(instant: number, timeZone?: string): string {
  const parts: Record<string, string> = {}
  for (const { type, value } of formatterFor(timeZone).formatToParts(instant)) parts[type] = value
  const { year = '', month, day, hour, minute, second, fractionalSecond } = parts
  return `${year.padStart(4, '0')}-${month}-${day}T${hour}:${minute}:${second}.${fractionalSecond}`
}

/** Why `timeZone` cannot be used (not an IANA name this runtime knows), or `undefined`. */
export function checkTimeZone(timeZone: string): string | undefined {
  try {
    formatterFor(timeZone)
    return undefined
  } catch {
    return `'${timeZone}' is not a time zone this runtime knows: give an IANA name such as Europe/Paris`
  }
}
