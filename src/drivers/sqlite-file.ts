import { mkdir, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { UnsupportedStoreError } from '../core/errors'

/** The file a `sqlite://PATH` URL names, resolved against the working folder. */
export function sqlitePath(url: string): string {
  const path = url.replace(/^sqlite:\/\//i, '')
  if (!path || path === url) {
    throw new UnsupportedStoreError(
      `The store URL '${url}' names no file (sqlite://./data/movies.sqlite)`,
    )
  }
  return resolve(path)
}

/**
 * Creates `folder` and its missing parents, one level at a time. Node's recursive mkdir retries
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
    await mkdir(each).catch((error: unknown) => {
      // Made meanwhile by another process opening the same store: as good as made here.
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error
    })
  }
}
