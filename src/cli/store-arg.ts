/** The `--store` option, as every subcommand that opens a log takes it. */
export const storeArg = {
  type: 'string',
  valueHint: 'URL',
  description:
    'store URL: memory://, sqlite://PATH, redis://..., postgres://... (default: MOVIE_LOG_STORE, then sqlite://./data/movies.sqlite)',
} as const
