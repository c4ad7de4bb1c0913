/**
 * `export --out FILE`: the export is written to a temporary file beside FILE and renamed over it
 * once complete, so a failed export leaves no file and an old FILE stays whole until then.
 */
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { realpath, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Writable } from 'node:stream'
import { UsageError } from './exit'

/** Where an export goes, and how it is put in place or taken back. */
export interface OutFile {
  stream: Writable
  /** Puts the complete export in place: the temporary file renamed over FILE. */
  commit(): Promise<void>
  /** Takes back what was written; `error`, if it came from writing, as a line naming FILE. */
  discard(error?: unknown): Promise<unknown>
}

/**
 * Opens `out` for an export. Refused, naming `--out`: a folder, a folder that does not exist,
 * and a file of the store being exported (`storeFiles`, compared by real path, so a relative
 * path or a symlink to it is caught too). A device or a pipe (`/dev/null`) is written as it is.
 */
export async function openOutFile(out: string, storeFiles: readonly string[]): Promise<OutFile> {
  const found = await stat(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw cannotWrite(out, error)
  })
  if (found?.isDirectory()) throw new UsageError(`--out: ${out} is a folder: name a file`)
  if (found && !found.isFile()) return direct(out)
  const target = await realPathOf(out)
  if (target === undefined) {
    throw new UsageError(`--out: cannot write ${out}: the folder ${dirname(out)} does not exist`)
  }
  for (const file of storeFiles) {
    if ((await realPathOf(file)) === target) {
      throw new UsageError(
        `--out: ${out} is the store's own file (${file}): writing it would erase the log; name another file`,
      )
    }
  }
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}`)
  // The file it replaces keeps its mode (a private export stays private); on disk before it
  // is renamed into place, so a crash never leaves FILE empty.
  const mode = found ? found.mode & 0o777 : 0o666
  return outFile(out, createWriteStream(temporary, { flags: 'wx', mode, flush: true }), {
    commit: () => rename(temporary, target),
    remove: () => rm(temporary, { force: true }),
  })
}

/** A device or a pipe, written in place: there is nothing to rename or take back. */
const direct = (out: string) =>
  outFile(out, createWriteStream(out), { commit: async () => {}, remove: async () => {} })

/** `stream` once its file is open (or the reason it cannot be, naming `out`), as an OutFile. */
async function outFile(
  out: string,
  stream: Writable,
  file: { commit(): Promise<void>; remove(): Promise<void> },
): Promise<OutFile> {
  try {
    await once(stream, 'open')
  } catch (error) {
    throw cannotWrite(out, error as NodeJS.ErrnoException)
  }
  const failed = failures(stream)
  return {
    stream,
    commit: () => file.commit().catch((error) => Promise.reject(cannotWrite(out, error))),
    discard: async (error) => {
      stream.destroy()
      await file.remove()
      return failed.has(error as object) ? cannotWrite(out, error as NodeJS.ErrnoException) : error
    },
  }
}

/**
 * The errors of writing `stream`, to tell a failed write from a failed read of the store: a
 * pipeline destroys the stream with the store's error too, but only the file system's errors
 * name a system call.
 */
function failures(stream: Writable): WeakSet<object> {
  const seen = new WeakSet<object>()
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.syscall) seen.add(error)
  })
  return seen
}

/**
 * The real path of `path`, symlinks resolved; for a file that does not exist yet, its folder's
 * real path and its name; undefined when the folder does not exist either.
 */
async function realPathOf(path: string): Promise<string | undefined> {
  try {
    return await realpath(path)
  } catch {
    try {
      return join(await realpath(dirname(path)), basename(path))
    } catch {
      return undefined
    }
  }
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'over the disk quota',
  EROFS: 'a read-only file system',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EIO: 'an input/output error',
}

/** A write that failed, as one line naming `--out` and why (not the temporary file's name). */
function cannotWrite(out: string, error: NodeJS.ErrnoException): Error {
  const reason = (error.code && REASONS[error.code]) ?? error.code ?? error.message
  return Object.assign(new Error(`--out: cannot write ${out}: ${reason}`, { cause: error }), {
    code: error.code,
  })
}
