/** Conditional requests (RFC 9110 §13): entity tags from a movie's version tag. */
import type { Movie } from '../core/movie'
import { versionOf } from '../core/version'

const ENTITY_TAG = /(W\/)?"([^"]*)"/g

/** The `ETag` of a movie: its version tag, quoted, a strong validator. */
export function etagOf(movie: Movie): string {
  return `"${versionOf(movie)}"`
}

/**
 * The tags an `If-Match` header names, as `ifMatch` takes them, or `undefined` without the
 * header. A weak tag never matches (If-Match compares strongly), so it is kept as is.
 */
export function parseIfMatch(header: string | null): string[] | undefined {
  if (header === null) return undefined
  if (header.trim() === '*') return ['*']
  const tags = [...header.matchAll(ENTITY_TAG)].map(([tag, weak, value]) => (weak ? tag : value))
  // Something, but no entity tag in it: it matches nothing.
  return tags.length > 0 ? (tags as string[]) : ['']
}

/** Whether `If-None-Match` names this entity tag (weak comparison) or `*`. */
export function noneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false
  if (header.trim() === '*') return true
  return [...header.matchAll(ENTITY_TAG)].some(([, , value]) => `"${value}"` === etag)
}
