/**
 * `movie-log user add NAME`: a person of a household server, with a new token shown once and
 * the webhook URLs their media servers scrobble to; `movie-log user webhooks`: everyone's.
 */
import { appendFile, readFile } from 'node:fs/promises'
import { defineCommand } from 'citty'
import { SCROBBLE_SOURCES } from '../formats/scrobble'
import { newToken, parseUsers, refuseUserName, userLine } from '../server'
import { UsageError } from './exit'

const usersArg = {
  type: 'string',
  valueHint: 'FILE',
  description: 'the users file, made if absent (default: MOVIE_LOG_USERS)',
} as const

const urlArg = {
  type: 'string',
  valueHint: 'URL',
  description:
    'the log as the media servers reach it (default: http://HOST:PORT/movies from HOST and PORT, as serve)',
} as const

/**
 * The log's URL as media servers reach it: `--url`, else where `serve` listens. The addresses
 * printed are this URL, a path and `?token=`: a query or a fragment in it would carry the token
 * into another parameter or keep it from being sent, so both are refused, as is any scheme but
 * http and https.
 */
function logUrl(url: string | undefined): string {
  const base = url || `http://${process.env.HOST || '127.0.0.1'}:${process.env.PORT || 3000}/movies`
  let parsed: URL
  try {
    parsed = new URL(base)
  } catch {
    throw new UsageError(`--url: '${base}' is not a URL`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`--url: '${base}' is not an http:// or https:// URL`)
  }
  if (parsed.href.includes('#')) {
    throw new UsageError(`--url: '${base}' has a fragment (#): give the log's URL without one`)
  }
  if (parsed.href.includes('?')) {
    throw new UsageError(
      `--url: '${base}' has a query (?): the webhook URLs add their own (?token=), so give the log's URL without one`,
    )
  }
  return parsed.href.replace(/\/+$/, '')
}

/** One line per source: `  plex      https://…/movies/scrobble/plex?token=…`. */
function webhookLines(base: string, token: string): string {
  return SCROBBLE_SOURCES.map(
    (source) => `  ${source.padEnd(9)} ${base}/scrobble/${source}?token=${token}\n`,
  ).join('')
}

/** The users file named by `--users` or MOVIE_LOG_USERS, read (empty when absent). */
async function readUsersFile(file: string | undefined) {
  if (!file) throw new UsageError('name the users file: --users FILE, or set MOVIE_LOG_USERS')
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return ''
    throw error
  })
  try {
    return { file, text, users: parseUsers(text) }
  } catch (error) {
    throw new Error(`${file} ${(error as Error).message}`)
  }
}

const add = defineCommand({
  meta: {
    name: 'add',
    description:
      "Add a person to the users file (their token's SHA-256) and print their new token, this once.",
  },
  args: {
    name: {
      type: 'positional',
      required: true,
      valueHint: 'NAME',
      description: 'their name, which is also their diary',
    },
    users: usersArg,
    url: urlArg,
  },
  run: async ({ args }) => {
    const refused = refuseUserName(args.name)
    if (refused) throw new UsageError(`NAME: ${refused}`)
    const base = logUrl(args.url)
    const { file, text, users } = await readUsersFile(args.users || process.env.MOVIE_LOG_USERS)
    if (users.some((user) => user.name === args.name)) {
      throw new Error(
        `'${args.name}' is in ${file} already: delete their line first to give them a new token`,
      )
    }
    const token = newToken()
    const separator = text === '' || text.endsWith('\n') ? '' : '\n'
    // Made readable by its owner alone; a file that was there keeps its own mode.
    await appendFile(file, separator + userLine(args.name, token), { mode: 0o600 })
    process.stderr.write(
      `added '${args.name}' to ${file}; their token, shown this once (restart the server to let them in):\n`,
    )
    process.stdout.write(`${token}\n`)
    // On standard error, as the line above: standard output is the token alone, for scripts.
    process.stderr.write(
      `their media servers' webhook URLs (the token in them; docs/guide/scrobbles.md):\n${webhookLines(base, encodeURIComponent(token))}`,
    )
  },
})

const webhooks = defineCommand({
  meta: {
    name: 'webhooks',
    description:
      "Print each person's webhook URLs for Plex, Jellyfin, Emby and other tools (their token goes where it says).",
  },
  args: { users: usersArg, url: urlArg },
  run: async ({ args }) => {
    const base = logUrl(args.url)
    const { file, users } = await readUsersFile(args.users || process.env.MOVIE_LOG_USERS)
    if (users.length === 0)
      throw new Error(`${file} names no one: add a person with movie-log user add NAME`)
    for (const user of users) {
      // Tokens are kept hashed: the person fills in the one they were given.
      process.stdout.write(`${user.name}:\n${webhookLines(base, `<${user.name}'s token>`)}`)
    }
  },
})

export default defineCommand({
  meta: {
    name: 'user',
    description: 'The people of a household server (MOVIE_LOG_USERS), each with a diary and token.',
  },
  subCommands: { add, webhooks },
})
