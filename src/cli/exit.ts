/** Exit codes of the command, which scripts rely on (CONTRACT "The command"). */
export const EXIT = {
  /** Everything was exported, imported or copied. */
  ok: 0,
  /** A row was refused, the copy did not verify, or the store failed. */
  failed: 1,
  /** The command was called wrongly: an unknown option value, a malformed store URL. */
  usage: 2,
} as const

/** A mistake in how the command was called: exit code 2, with the usage shown. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** Whether `error` says the command was called wrongly (ours, or citty's argument errors). */
export const isUsageError = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'UsageError' || error.name === 'CLIError')
