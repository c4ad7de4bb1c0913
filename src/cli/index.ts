#!/usr/bin/env node
/**
 * @module movie-log (command): `movie-log <subcommand>`. Each subcommand is a file of its own
 * in this folder, loaded only when it runs. Exit codes: 0 done, 1 failed (a refused row, a copy
 * that did not verify, a store error), 2 called wrongly.
 */
import { defineCommand, runCommand, showUsage } from 'citty'
import { EXIT, isUsageError } from './exit'
import { calledCommands, refuseUnknownOptions } from './options'

const movieLog = defineCommand({
  meta: { name: 'movie-log', description: 'A log of the movies you have screened.' },
  subCommands: {
    serve: () => import('./serve').then((command) => command.default),
    export: () => import('./export').then((command) => command.default),
    import: () => import('./import').then((command) => command.default),
    copy: () => import('./copy').then((command) => command.default),
    user: () => import('./user').then((command) => command.default),
    stats: () => import('./stats').then((command) => command.default),
    catalog: () => import('./catalog').then((command) => command.default),
    share: () => import('./share').then((command) => command.default),
    webhooks: () => import('./webhooks').then((command) => command.default),
  },
})

const rawArgs = process.argv.slice(2)
// The usage of the subcommand called (`user add`'s, not `user`'s), with its parent's name.
const usage = async () => {
  const levels = await calledCommands(movieLog, rawArgs)
  await showUsage(
    (levels.at(-1) as (typeof levels)[number]).command,
    levels.at(-2)?.command as typeof movieLog | undefined,
  )
}

try {
  if (rawArgs.includes('--help') || rawArgs.includes('-h')) {
    await usage()
  } else {
    await refuseUnknownOptions(movieLog, rawArgs)
    await runCommand(movieLog, { rawArgs })
  }
} catch (error) {
  if (isUsageError(error)) {
    await usage()
    process.stderr.write(`movie-log: ${(error as Error).message}\n`)
    process.exitCode = EXIT.usage
  } else {
    process.stderr.write(`movie-log: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = EXIT.failed
  }
}
