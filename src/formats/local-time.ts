/** An instant as local time in an IANA time zone, in the log's `screenedDate` form. */

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? ''
  let formatter = formatters.get(key)
  if (!formatter) {
    // The handler's options were checked when it was made (src/http/options.ts).
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
