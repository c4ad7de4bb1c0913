/** The `--store` option, as every subcommand that opens a log takes it. */
export const storeArg = {
  type: 'string',
  valueHint: 'URL',
  description:
    'store URL: memory://, sqlite://PATH, redis://..., redis+cluster://HOST:PORT,..., postgres://... (default: MOVIE_LOG_STORE, then sqlite://./data/movies.sqlite)',
} as const

/** The `--owner` option of export, import and copy: one owner's diary of a store with many. */
export const ownerArg = {
  type: 'string',
  valueHint: 'NAME',
  description:
    "that owner's diary, on a store of many (createMovieLogs, a household server); default: the one diary",
} as const
