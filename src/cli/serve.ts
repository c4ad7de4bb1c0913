/** `movie-log serve`: the server, in this process, so that signals reach it. */
import { defineCommand } from 'citty'
import { loadServer, missingPackage, SERVER_PACKAGES } from '../server'

export default defineCommand({
  meta: {
    name: 'serve',
    description:
      'Serve the log over HTTP at /movies (settings: PORT, HOST, MOVIE_LOG_STORE and the rest, see the README).',
  },
  args: {
    store: {
      type: 'string',
      valueHint: 'URL',
      description:
        'store URL: memory://, sqlite://PATH, redis://..., postgres://... (default: MOVIE_LOG_STORE, then sqlite://./data/movies.sqlite)',
    },
  },
  run: async ({ args }) => {
    // Loaded here: h3 and listhen are needed by this subcommand only, and a user of the library
    // alone has neither installed.
    const { main } = await loadServer().catch((error: unknown) => {
      const missing = missingPackage(error)
      if (!missing) throw error
      const needed = SERVER_PACKAGES.join(' ')
      throw new Error(
        `serve needs ${SERVER_PACKAGES.join(' and ')} installed beside movie-log, and '${missing}' is not: npm install ${needed}`,
        { cause: error },
      )
    })
    await main(args.store ? { ...process.env, MOVIE_LOG_STORE: args.store } : process.env)
  },
})
