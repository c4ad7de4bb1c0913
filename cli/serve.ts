/** `movie-log serve`: the example server, in this process, so that signals reach it. */
import { defineCommand } from 'citty'

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
    // Loaded here: h3 and listhen are needed by this subcommand only.
    const { main } = await import('../examples/server')
    await main(args.store ? { ...process.env, MOVIE_LOG_STORE: args.store } : process.env)
  },
})
