/**
 * The `generic` scrobble, for any other tool (a Kodi add-on, Home Assistant, a script):
 * `{ imdbId | imdbLink, title, releaseYear, watchedAt, notes? }`, always a finished watch.
 */
import type { ValidationIssue } from '../core/errors'
import { checkScreenedDate } from '../core/fields'
import {
  imdbIdOf,
  impossibleTime,
  instantOf,
  isObject,
  type Scrobble,
  type WatchTime,
} from './scrobble'

const FIELDS = new Set(['imdbId', 'imdbLink', 'title', 'releaseYear', 'watchedAt', 'notes'])
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/
const LINKED_ID = /\/title\/(tt\d+)/
// Unknown fields named in the answer, and characters shown of each: a payload of a million
// made-up keys gets a short answer, not all of them read back.
const UNKNOWN_NAMED = 10
const NAME_SHOWN = 40

/** Reads one generic scrobble; every field problem is named at once. */
export function readGeneric(payload: unknown): Scrobble {
  if (!isObject(payload))
    return { kind: 'malformed', detail: 'The scrobble must be a JSON object.' }
  const unknown = Object.keys(payload).filter((field) => !FIELDS.has(field))
  if (unknown.length > 0) {
    const named = unknown.slice(0, UNKNOWN_NAMED).map(shortened).join(', ')
    const more = unknown.length - UNKNOWN_NAMED
    const rest = more > 0 ? ` and ${more} more` : ''
    return { kind: 'malformed', detail: `Unknown field(s): ${named}${rest}.` }
  }
  const watched = watchTimeOf(payload.watchedAt)
  if (watched === 'impossible') return impossibleTime('watchedAt', payload.watchedAt)
  if (!watched) {
    return {
      kind: 'malformed',
      detail:
        "'watchedAt' must be a local time YYYY-MM-DDThh:mm:ss.SSS or an instant with an offset (2024-06-01T20:30:00Z).",
    }
  }
  const { imdbId, issue } = idOf(payload)
  if (!imdbId) return { kind: 'incomplete', issues: [issue as ValidationIssue] }
  if (payload.notes !== undefined && typeof payload.notes !== 'string') {
    return { kind: 'malformed', detail: "'notes' must be a string." }
  }
  return {
    kind: 'watched',
    imdbId,
    title: payload.title,
    releaseYear: payload.releaseYear,
    watchedAt: watched,
    notes: (payload.notes as string | undefined) ?? 'Scrobbled from a webhook',
  }
}

const shortened = (name: string): string =>
  name.length > NAME_SHOWN ? `${name.slice(0, NAME_SHOWN)}…` : name

function watchTimeOf(value: unknown): WatchTime | 'impossible' | undefined {
  if (typeof value === 'string' && LOCAL_TIME.test(value)) {
    return checkScreenedDate(value) === true ? { local: value } : 'impossible'
  }
  const instant = instantOf(value)
  return typeof instant === 'number' ? { instant } : instant
}

function idOf(payload: Record<string, unknown>): { imdbId?: string; issue?: ValidationIssue } {
  if (payload.imdbId !== undefined) {
    const imdbId = imdbIdOf(payload.imdbId)
    return imdbId
      ? { imdbId }
      : { issue: { path: 'imdbId', message: 'must be an IMDb id like tt0111161' } }
  }
  if (typeof payload.imdbLink === 'string') {
    const imdbId = imdbIdOf(LINKED_ID.exec(payload.imdbLink)?.[1])
    if (imdbId) return { imdbId }
    return { issue: { path: 'imdbLink', message: 'must be an IMDb title link (…/title/tt…/)' } }
  }
  return { issue: { path: 'imdbId', message: 'is missing: send imdbId or imdbLink' } }
}
