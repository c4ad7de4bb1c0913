import fc from 'fast-check'
import { expect, it } from 'vitest'
import { parseNewMovie, parseWithSuperstruct } from '../src/core/movie'
import { aMovie } from './_movies'
import { webPath, webUrl } from './_text'

// parseNewMovie takes a fast path for valid movies and falls back to superstruct for the rest.
// Pins that the fast path never accepts what superstruct refuses, nor cleans it differently.

const outcome = (parse: (input: object) => unknown, input: object) => {
  try {
    return { accepted: parse(input) }
  } catch (error) {
    return { refused: (error as { issues?: unknown }).issues }
  }
}

const sometimes = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 9, arbitrary: valid }, { weight: 1, arbitrary: fc.anything() })

const localDateTime = fc
  .date({
    min: new Date('0001-01-01T00:00:00Z'),
    max: new Date('9999-12-31T23:59:59Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString().slice(0, 23))

const rarely = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 9, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: value })

const movieLike = fc
  .tuple(
    fc.record(
      {
        title: sometimes(
          fc.oneof(
            fc.string({ minLength: 1, maxLength: 520 }),
            fc.string({ maxLength: 3 }),
            fc.constantFrom('', '   ', ' Heat ', '😀'.repeat(501), 'a\u0000b', '\u202eHeat'),
          ),
        ),
        screenedDate: sometimes(
          fc.oneof(
            localDateTime,
            fc.constantFrom('2024-02-30T10:00:00.000', '2024-05-01T20:30:00.000Z', '2024-05-01'),
          ),
        ),
        releaseYear: sometimes(
          fc.oneof(fc.integer({ min: 1870, max: 9999 }), fc.integer({ min: 1800, max: 10100 })),
        ),
        imdbLink: sometimes(
          fc.oneof(
            webUrl({ validSchemes: ['https'] }),
            // Weighted: most generated links are refused, and accepted ones must be common too.
            { weight: 4, arbitrary: webPath().map((path) => `https://www.imdb.com${path}`) },
            webUrl(),
            fc.constantFrom(
              'https://www.imdb.com/title/tt0113277/',
              'https://user:pw@www.imdb.com/',
              'http://www.imdb.com/',
              'https://',
              'https://a b.com/',
              `https://x.com/${'a'.repeat(2048)}`,
            ),
          ),
        ),
        notes: sometimes(
          fc.oneof(fc.string({ maxLength: 50 }), fc.constantFrom(null, undefined, 'a\r\n\u0085')),
        ),
      },
      { requiredKeys: ['title', 'screenedDate', 'releaseYear', 'imdbLink'] },
    ),
    rarely(
      fc.record({ catalogLink: fc.constantFrom('https://www.imdb.com/title/tt0113277/', 'x') }),
    ),
    rarely(fc.dictionary(fc.string(), fc.anything(), { minKeys: 1, maxKeys: 2 })),
  )
  .map((parts) => Object.assign({}, ...parts) as Record<string, unknown>)

it('the fast path accepts exactly what superstruct accepts, with the same result', () => {
  let accepted = 0
  fc.assert(
    fc.property(movieLike, (input) => {
      const fast = outcome(parseNewMovie, input)
      expect(fast).toEqual(outcome(parseWithSuperstruct, input))
      if ('accepted' in fast) accepted++
    }),
    { numRuns: 3000 },
  )
  // Both sides were exercised: a property that only ever saw refusals would prove nothing.
  expect(accepted).toBeGreaterThan(100)
  expect(accepted).toBeLessThan(2900)
})

// The imdbLink rule as the contract states it, through a full URL parse: the rule skips the
// parse for plain links, whose host it reads itself.
function linkFollowsTheRule(link: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule refuses control characters
  if (link.length > 2048 || /[\s\u0000-\u001f\u007f]/.test(link)) return false
  try {
    const url = new URL(link)
    const imdb = url.hostname === 'imdb.com' || url.hostname.endsWith('.imdb.com')
    return url.protocol === 'https:' && imdb && url.username === '' && url.password === ''
  } catch {
    return false
  }
}

it('accepts exactly the links that parse as https: URLs to an IMDb host with no user name', () => {
  const scheme = fc.constantFrom('https:', 'https://', 'HTTPS://', 'hTtPs:', 'http://', 'ftp:', '')
  const user = fc.constantFrom('', '', '', 'user:pw@', 'user@', ':@', '@')
  const host = fc.constantFrom(
    ...['www.imdb.com', 'imdb.com', 'M.IMDb.com', 'www.imdb.com.', 'imdb.com.evil.example'],
    ...['evilimdb.com', 'xn--imdb.com', 'www.xn--imdb-ko.com', 'a.imdb.com:443', 'imdb.co', ''],
  )
  const piece = fc.constantFrom(
    ...['//', '/', '\\', '@', ':', '443', ':99999', 'www.imdb.com', '.imdb.com', 'a', 'user:pw@'],
    ...['[', ']', '%', '%20', '%zz', '?q=1', '#top', '.', '..', 'xn--', '-', 'ü', '１', '\u00ad'],
    ...['^', '|', ' ', '\t', 'https:', '0x', '0X1f', '08', '1', 'g', 'a-b', 'XN--', '[::1]'],
  )
  const link = fc
    .tuple(scheme, user, host, fc.array(piece, { maxLength: 4 }))
    .map(([start, userinfo, name, parts]) => start + userinfo + name + parts.join(''))
  let accepted = 0
  fc.assert(
    fc.property(link, (imdbLink) => {
      const ok = 'accepted' in outcome(parseNewMovie, aMovie({ imdbLink }))
      expect(ok, imdbLink).toBe(linkFollowsTheRule(imdbLink))
      if (ok) accepted++
    }),
    {
      numRuns: 5000,
      // Hosts at the edges of the URL standard's rules: numbers, punycode, empty labels.
      examples: [
        ...['https://a.imdb.0x', 'https://imdb.com.0x1f/', 'https://a.1', 'https://imdb.com.08'],
        ...['https://www.imdb.com', 'https://1.2.3.4/', 'https://imdb.xn--nxasmq6b'],
        ...['https://xn--a.imdb.com', 'https://imdb.com.', 'https://www..imdb.com'],
        ...['https://-a-.imdb.com', 'https://IMDB.COM?x#y', 'https://user:pw@evil.example/'],
      ].map((example) => [example]),
    },
  )
  // Both sides were exercised.
  expect(accepted).toBeGreaterThan(200)
  expect(accepted).toBeLessThan(4500)
})
