import { UnsupportedStoreError } from '../../core/errors'

/** The keys of one owner's log on Redis, all under one hash tag. */
export interface RedisLogKeys {
  /** `{<ns>:<owner>}`: the hash tag every key of the log starts with. */
  tag: string
  /** Prefix of a movie's key; the id follows. */
  movie: string
  /** Sorted set of ids, all at score 0: lexical order is the order added. */
  ids: string
  /** Sorted set of `screenedDate|id`, all at score 0. */
  dates: string
  /** Edits and deletes so far (see shared/counted-cache.ts). */
  changes: string
  /** The log's history: a stream of its latest changes (about HISTORY_BOUND). */
  history: string
  /** Prefix of a record's key; the record's key follows. */
  record: string
  /** Sorted set of live record keys, scored by when they expire: what `drop` deletes. */
  records: string
  /** Search and statistics (redis/terms.ts): the words, the counters, the links, what is counted. */
  words: string
  tallies: string
  links: string
  counted: string
  paged: string
  pending: string
}

/**
 * An owner's name as it appears in its keys: `encodeURIComponent`, so `{`, `}`, `:`, spaces and
 * non-ASCII never reach the key, and a lone surrogate (which it refuses) as `%uXXXX`, a form
 * it never writes. Two owners never share a tag.
 */
export function encodeOwner(owner: string): string {
  return owner.replace(/\p{Cs}|\P{Cs}+/gu, (part) =>
    /^\p{Cs}$/u.test(part)
      ? `%u${part.charCodeAt(0).toString(16).toUpperCase()}`
      : encodeURIComponent(part),
  )
}

/**
 * Refuses a namespace that would break the hash tag: Redis hashes the text between the first
 * `{` and the next `}`, so a brace in the namespace would put owners' keys in other slots.
 */
export function checkNamespace(namespace: string): void {
  if (/[{}]/.test(namespace)) {
    throw new UnsupportedStoreError(
      `The namespace '${namespace}' has a '{' or '}': Redis reads them as a key's hash tag, so the namespace cannot hold them`,
    )
  }
}

/**
 * The key layout of one owner's log: `{<ns>:<enc(owner)>}:movie:<id>`, `…:ids`, `…:dates`,
 * `…:changes`, `…:history`, `…:record:<key>` and `…:records`. One hash tag, so every script and multi-key
 * command of a log stays in one Redis Cluster slot, and each owner's log is a slot of its own.
 */
export function redisLogKeys(namespace: string, owner: string): RedisLogKeys {
  const tag = `{${namespace}:${encodeOwner(owner)}}`
  return {
    tag,
    movie: `${tag}:movie:`,
    ids: `${tag}:ids`,
    dates: `${tag}:dates`,
    changes: `${tag}:changes`,
    history: `${tag}:history`,
    record: `${tag}:record:`,
    records: `${tag}:records`,
    words: `${tag}:words`,
    tallies: `${tag}:tallies`,
    links: `${tag}:links`,
    counted: `${tag}:counted`,
    paged: `${tag}:paged`,
    pending: `${tag}:pending`,
  }
}

/**
 * The sorted set of a namespace's owners, `{<ns>}:owners`, all at score 0 (lexical order: by
 * UTF-8 bytes, which is by code point). Its own hash tag: an owner's keys keep theirs, so on a
 * cluster this set is one slot and each owner's log another.
 */
export function redisOwnersKey(namespace: string): string {
  return `{${namespace}}:owners`
}

/**
 * The channel a namespace's writes PUBLISH the owner on, `{<ns>}:changed`: from the write's own
 * script (on a cluster a PUBLISH reaches every node), heard by one SUBSCRIBE connection per driver.
 */
export function redisChangedChannel(namespace: string): string {
  return `{${namespace}}:changed`
}

/** A movie's member of the date index: the 23-character screenedDate, '|', the id (from 25). */
export const dateMember = (movie: { id: string; screenedDate: string }): string =>
  `${movie.screenedDate}|${movie.id}`
