/**
 * The one line the server prints when it cannot start: a store that cannot be opened (what
 * went wrong, named by the store's own error, with the store URL and never its password), or a
 * package that is not installed.
 */
import { resolve } from 'node:path'
import { errorChain } from '../core/errors'
import { redact } from '../core/store-url'

type Explain = (url: URL, code: string) => string

const unreachable =
  (what: string): Explain =>
  (_url, code) =>
    `cannot be reached: ${what} (${code})`
const refusedCredentials: Explain = (_url, code) => `refused the user name or password (${code})`

// Node errnos, PostgreSQL SQLSTATEs, Redis replies, SQLite codes: the causes a first start meets.
const BY_CODE: Record<string, Explain> = {
  ECONNREFUSED: unreachable('connection refused'),
  ECONNRESET: unreachable('connection reset'),
  EHOSTUNREACH: unreachable('no route to the host'),
  ENETUNREACH: unreachable('no route to the network'),
  ETIMEDOUT: unreachable('no answer in time'),
  ConnectionTimeoutError: unreachable('no answer in time'),
  ENOTFOUND: (url, code) => `cannot be reached: unknown host '${url.hostname}' (${code})`,
  EAI_AGAIN: (url, code) => `cannot be reached: cannot resolve host '${url.hostname}' (${code})`,
  WRONGPASS: refusedCredentials,
  NOAUTH: (_url, code) => `needs a password, and the URL has none (${code})`,
  '28P01': refusedCredentials,
  '28000': refusedCredentials,
  '3D000': (url, code) => `has no database '${url.pathname.slice(1)}' (${code})`,
  // Redis answers SELECT of a missing index with `ERR DB index is out of range`.
  'ERR DB index': (url) =>
    `has no database ${url.pathname.slice(1)} (ERR DB index is out of range: Redis has 16 by default, 0 to 15)`,
  SQLITE_CANTOPEN: (url, code) => `cannot be opened: ${url.pathname} (${code})`,
}

/** One line saying why the store at `storeUrl` could not be opened, password hidden. */
export function explainStoreFailure(storeUrl: string, error: unknown): string {
  if (storeUrl.startsWith('sqlite://')) {
    // The file's own error: a folder that cannot be made, a file that cannot be opened.
    const cause = [...errorChain(error)].findLast((each) => (each as { code?: unknown }).code)
    const file = storeUrl.slice('sqlite://'.length).split('?', 1)[0] as string
    return explainSqliteFailure(resolve(file), cause ?? error)
  }
  const url = parsed(storeUrl)
  for (const candidate of errorChain(error)) {
    const code = codeOf(candidate)
    const explain = code && BY_CODE[code]
    if (explain) return `the store ${redact(storeUrl)} ${explain(url, code)}`
  }
  const message = error instanceof Error ? error.message : String(error)
  return `the store ${redact(storeUrl)} cannot be reached (${message || 'no reason given'})`
}

// A URL as the explanations read it: a cluster's names several hosts, the first stands for all.
function parsed(storeUrl: string): URL {
  const cluster = /^(rediss?)\+cluster:\/\/([^/?#]*@)?([^,/?#]*)/i.exec(storeUrl)
  const url = cluster ? `${cluster[1]}://${cluster[2] ?? ''}${cluster[3]}` : storeUrl
  return URL.canParse(url) ? new URL(url) : new URL('store://unknown')
}

/** For SQLite: one line naming the path that could not be created or opened. */
export function explainSqliteFailure(path: string, error: unknown): string {
  const code = (error as { code?: string }).code ?? 'unknown error'
  if (code === 'SQLITE_CANTOPEN') return `cannot open the SQLite file ${path} (${code})`
  return `cannot create the SQLite file ${path}: ${(error as Error).message ?? code}`
}

function codeOf(error: Error): string | undefined {
  if (/^ERR DB index/.test(error.message)) return 'ERR DB index'
  const { code } = error as { code?: unknown }
  if (typeof code === 'string') return code
  return /^([A-Z]{4,})\b/.exec(error.message)?.[1] ?? error.name
}

/**
 * The packages `movie-log serve` needs beside movie-log: optional peer dependencies, which a
 * user of the library alone never installs.
 */
export const SERVER_PACKAGES = ['h3', 'listhen']

/** The package an import could not find, else undefined: the drivers' one way to tell. */
export { missingPackageOf as missingPackage } from '../create'
