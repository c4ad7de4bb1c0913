/** `movie-log user add NAME`: a person of a household server, with a new token shown once. */
import { appendFile, readFile } from 'node:fs/promises'
import { defineCommand } from 'citty'
import { newToken, parseUsers, refuseUserName, userLine } from '../server/users'
import { UsageError } from './exit'

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
    users: {
      type: 'string',
      valueHint: 'FILE',
      description: 'the users file, made if absent (default: MOVIE_LOG_USERS)',
    },
  },
  run: async ({ args }) => {
    const file = args.users || process.env.MOVIE_LOG_USERS
    if (!file) throw new UsageError('name the users file: --users FILE, or set MOVIE_LOG_USERS')
    const refused = refuseUserName(args.name)
    if (refused) throw new UsageError(`NAME: ${refused}`)
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return ''
      throw error
    })
    let users: ReturnType<typeof parseUsers>
    try {
      users = parseUsers(text)
    } catch (error) {
      throw new Error(`${file} ${(error as Error).message}`)
    }
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
  },
})

export default defineCommand({
  meta: {
    name: 'user',
    description: 'The people of a household server (MOVIE_LOG_USERS), each with a diary and token.',
  },
  subCommands: { add },
})
