import { existsSync } from 'node:fs'
import { mkdir, open, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { platform } from 'node:process'
import { UnsupportedStoreError } from '../../core/errors'

/** Which library a `sqlite://` store runs on: the runtime's own, or the sqlite3 package. */
export type SqliteChoice = 'builtin' | 'sqlite3'

/**
 * When a commit is synced to disk: `full` (the default) at every commit, so an answered write
 * survives a power cut; `normal` never at a commit (the write-ahead log stays consistent, and a
 * write survives the process's crash but maybe not a power cut), the files synced once when the
 * store is closed. `normal` is for a bulk writer such as `movie-log import`, whose commits then
 * hold the file's write lock without a sync in it, and which reports once it is closed.
 */
export type SqliteSynchronous = 'full' | 'normal'

/** What a `sqlite://` URL names: the file, absolute, and its parameters. */
export interface SqliteUrl {
  path: string
  choice?: SqliteChoice
  synchronous?: SqliteSynchronous
}

/** Each parameter a `sqlite://` URL takes, with its values (a Map: `?constructor=` is none). */
const PARAMETERS = new Map<string, readonly string[]>([
  ['client', ['builtin', 'sqlite3']],
  ['synchronous', ['full', 'normal']],
])

/**
 * The file a `sqlite://` URL names, absolute, the library its `?client=` asks for and its
 * `?synchronous=`. Those are the parameters it takes: any other (`?mode=ro`, a `?namespace=`
 * meant for the log's options) is refused, where it would have become part of the file's name.
 * A path that starts with `~/` is in the home folder, as a shell reads it (no shell expands it
 * inside a URL).
 */
export function parseSqliteUrl(url: string): SqliteUrl {
  const rest = url.replace(/^sqlite:\/\//i, '')
  const at = rest.indexOf('?')
  const file = at === -1 ? rest : rest.slice(0, at)
  if (!file || rest === url) {
    throw new UnsupportedStoreError(
      `The store URL '${url}' names no file (sqlite://./data/movies.sqlite)`,
    )
  }
  const params = new URLSearchParams(at === -1 ? '' : rest.slice(at + 1))
  for (const name of new Set(params.keys())) {
    const values = PARAMETERS.get(name)
    if (!values) {
      throw new UnsupportedStoreError(
        `The store URL '${url}' has an unknown parameter '${name}': it takes only client=builtin or client=sqlite3, and synchronous=full or synchronous=normal`,
      )
    }
    if (params.getAll(name).length > 1) {
      throw new UnsupportedStoreError(`The store URL '${url}' names ${name} more than once`)
    }
    const value = params.get(name) ?? ''
    if (!values.includes(value)) {
      throw new UnsupportedStoreError(
        `The store URL '${url}' asks for ${name} '${value}': ${name} is ${values.join(' or ')}`,
      )
    }
  }
  const choice = (params.get('client') ?? undefined) as SqliteChoice | undefined
  const synchronous = (params.get('synchronous') ?? undefined) as SqliteSynchronous | undefined
  return {
    path: /^~[/\\]/.test(file) ? homePath(url, file) : resolve(file),
    choice,
    synchronous,
  }
}

/**
 * `~/…` in the home folder. An older movie-log kept such a file under a folder named `~` in the
 * working folder: found there and not at home, it is refused rather than a new empty diary begun.
 */
function homePath(url: string, file: string): string {
  const path = join(homedir(), file.slice(2))
  const older = resolve(file)
  if (!existsSync(path) && existsSync(older)) {
    throw new UnsupportedStoreError(
      `The store URL '${url}' now names ${path} (~ is the home folder), and the diary an older movie-log kept for it is at ${older}: move it there, or name that path`,
    )
  }
  return path
}

/**
 * Makes the SQLite file at `path` if it is missing, readable and writable by its owner alone
 * (0600, as the users file is), and its missing folders (0700): SQLite would make the file 0644
 * and Node the folders 0755, readable by every local user. Its WAL and shared-memory files take
 * the file's permissions. A file or folder that exists is left as it is.
 */
export async function makeFile(path: string): Promise<void> {
  await makeFolder(dirname(path))
  const made = await open(path, 'wx', 0o600).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'EEXIST') return undefined
    throw error
  })
  await made?.close()
}

/**
 * Creates `folder` and its missing parents (0700), one level at a time. Node's recursive mkdir retries
 * forever, one core at 100%, where mkdir answers ENOENT for a folder whose parent exists
 * (`/proc/nope`): here that ENOENT is the answer.
 */
export async function makeFolder(folder: string): Promise<void> {
  const missing: string[] = []
  for (let at = folder; ; at = dirname(at)) {
    try {
      await stat(at)
      break
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT' || dirname(at) === at) throw error
      missing.unshift(at)
    }
  }
  for (const each of missing) {
    await mkdir(each, { mode: 0o700 }).catch((error: unknown) => {
      // Made meanwhile by another process opening the same store: as good as made here.
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error
    })
  }
}

/** The cause of a file that cannot be created or opened, in a message naming the path. */
export function openFailure(message: string, cause: unknown): Error {
  return Object.assign(new Error(message, { cause }), { code: (cause as { code?: unknown }).code })
}

/**
 * Syncs the file at `path`, its write-ahead log and its folder to disk: what commits made with
 * `synchronous = NORMAL` wrote (a missing log was checkpointed and removed, the database synced
 * then). The folder too, for a file made meanwhile; not on Windows, where a folder is not opened.
 */
export async function syncFiles(path: string): Promise<void> {
  const folder = platform === 'win32' ? [] : [dirname(path)]
  for (const each of [`${path}-wal`, path, ...folder]) {
    const handle = await open(each, each === dirname(path) ? 'r' : 'r+').catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'ENOENT') return undefined
      throw error
    })
    try {
      await handle?.sync()
    } finally {
      await handle?.close()
    }
  }
}
