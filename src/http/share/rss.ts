/**
 * A share link's RSS 2.0 feed: the latest 100 screenings, each with the elements of Letterboxd's
 * own per-person feeds (`letterboxd:watchedDate`, `rewatch`, `filmTitle`, `filmYear`,
 * `memberRating`), so what reads a Letterboxd feed (blog widgets, RSSHub, an Obsidian plug-in)
 * reads this one. Written here: the feed libraries on npm either declare no namespace of the
 * caller's on `<rss>` (`feed`) or are unkept (`rss`, last released in 2017); the text is escaped
 * by `xmlText`, the one way any value reaches the XML.
 */
import type { Movie } from '../../core/movie'
import { localTimeOf } from '../../formats/local-time'
import type { Revisions } from './revisions'

/** The screenings an RSS feed holds, as Letterboxd's do. */
export const RSS_ITEMS = 100
const LETTERBOXD = 'https://letterboxd.com'

/** What the feed is written from. */
export interface RssFeed {
  /** The latest screenings as shown (notes left out when hidden), latest first. */
  entries: readonly Movie[]
  /** Whether each entry is a screening of a film screened before. */
  rewatch: (movie: Movie) => boolean
  revisions: Revisions
  /** The share link's own address (the channel's link) and the feed's. */
  link: string
  self: string
  timeZone: string | undefined
}

/** The feed as XML text. */
export function rssOf(feed: RssFeed): string {
  const items = feed.entries.slice(0, RSS_ITEMS).map((movie) => itemOf(movie, feed))
  const lastBuild = new Date(feed.revisions.changedAt).toUTCString()
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:letterboxd="${LETTERBOXD}" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>Movie diary</title>
<link>${xmlText(feed.link)}</link>
<description>Movies screened, latest first</description>
<lastBuildDate>${lastBuild}</lastBuildDate>
<atom:link href="${xmlText(feed.self)}" rel="self" type="application/rss+xml"/>
${items.join('')}</channel>
</rss>
`
}

function itemOf(movie: Movie, feed: RssFeed): string {
  const rating = movie.rating
  const stars = rating ? ` - ${'★'.repeat(Math.floor(rating / 2))}${rating % 2 ? '½' : ''}` : ''
  const watched = movie.screenedDate.slice(0, 10)
  const lines = [
    `<title>${xmlText(`${movie.title}, ${movie.releaseYear}${stars}`)}</title>`,
    `<link>${xmlText(movie.imdbLink)}</link>`,
    `<guid isPermaLink="false">movie-log-${xmlText(movie.id)}</guid>`,
    `<pubDate>${new Date(instantOf(movie.screenedDate, feed.timeZone)).toUTCString()}</pubDate>`,
    `<letterboxd:watchedDate>${watched}</letterboxd:watchedDate>`,
    `<letterboxd:rewatch>${feed.rewatch(movie) ? 'Yes' : 'No'}</letterboxd:rewatch>`,
    `<letterboxd:filmTitle>${xmlText(movie.title)}</letterboxd:filmTitle>`,
    `<letterboxd:filmYear>${movie.releaseYear}</letterboxd:filmYear>`,
  ]
  // Letterboxd's 0.5 to 5.0 stars, one decimal, from the log's 1 to 10; absent when unrated.
  if (rating)
    lines.push(`<letterboxd:memberRating>${(rating / 2).toFixed(1)}</letterboxd:memberRating>`)
  const watchedOn = `Watched on ${watched}.`
  lines.push(
    `<description>${xmlText(movie.notes ? `${movie.notes}\n\n${watchedOn}` : watchedOn)}</description>`,
  )
  return `<item>\n${lines.join('\n')}\n</item>\n`
}

// Characters XML 1.0 cannot hold (other controls, U+FFFE, U+FFFF, lone surrogates): U+FFFD.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }

/** Text as XML character data or an attribute's value. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '\uFFFD').replace(/[&<>"]/g, (char) => ESCAPES[char] as string)
}

/**
 * The instant a local time (`screenedDate`) names in `timeZone` (the runtime's own when
 * undefined): the UTC reading of its fields, corrected by the zone's offset there (twice, so a
 * time near a change of offset lands on the offset in force).
 */
export function instantOf(localTime: string, timeZone: string | undefined): number {
  const asUtc = Date.parse(`${localTime}Z`)
  let instant = asUtc
  for (let round = 0; round < 2; round++) {
    instant = asUtc - (Date.parse(`${localTimeOf(instant, timeZone)}Z`) - instant)
  }
  return instant
}
