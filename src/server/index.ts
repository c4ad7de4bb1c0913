/**
 * The server's door, for the command: the checks a store passes before it is served, the
 * household's users, and the server itself, loaded on first use (h3 and listhen are needed by
 * `movie-log serve` alone, and a user of the library has neither installed).
 */
export { flagOf } from './config'
export { missingPackage, SERVER_PACKAGES } from './start-errors'
export { openCheckedLog, openCheckedLogs, StoreOpenError } from './store'
export { newToken, parseUsers, refuseUserName, userLine } from './users'

/** Loads the server: `(await loadServer()).main(process.env)` serves the log until a signal. */
export const loadServer = () => import('./server')
