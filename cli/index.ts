#!/usr/bin/env node
/**
 * @module movie-log (command): `movie-log <subcommand>`. Each subcommand is a file of its own
 * in this folder, loaded only when it runs.
 */
import { defineCommand, runMain } from 'citty'

const movieLog = defineCommand({
  meta: { name: 'movie-log', description: 'A log of the movies you have screened.' },
  subCommands: {
    serve: () => import('./serve').then((command) => command.default),
  },
})

await runMain(movieLog)
