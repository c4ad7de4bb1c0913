/**
 * `movie-log webhooks add|list|remove`: the endpoints told of each change of a diary (outgoing
 * webhooks, `{base}/webhooks`), kept in its store, for `movie-log serve` to deliver to. Not the
 * scrobble URLs media servers call (`movie-log user webhooks` prints those).
 */
import { defineCommand } from 'citty'
import { checkOwner } from '../core/owner'
import { InvalidOwnerError, WEBHOOK_EVENTS, WebhookValidationError } from '../index'
import { flagOf } from '../server'
import type { WebhookEvent } from '../webhooks/endpoint'
import { webhooksOf } from '../webhooks/webhooks'
import { UsageError } from './exit'
import { openLog, openLogs, storeUrl } from './log-store'
import { ownerArg, storeArg } from './store-arg'

const owner = {
  ...ownerArg,
  alias: 'user',
  description: "that person's endpoints, on a household's store (--user is the same)",
} as const

/** Runs `work` on the endpoints of the diary the options name, then closes its store. */
async function withWebhooks<T>(
  args: { store?: string; owner?: string },
  work: (hooks: ReturnType<typeof webhooksOf>) => Promise<T>,
): Promise<T> {
  const url = storeUrl(args.store)
  const allowPrivateNetworks = flagOf(process.env, 'MOVIE_LOG_WEBHOOK_PRIVATE')
  if (args.owner === undefined) {
    const { log, close } = await openLog(url)
    try {
      return await work(webhooksOf(log, { allowPrivateNetworks }))
    } finally {
      await close()
    }
  }
  try {
    checkOwner(args.owner)
  } catch (error) {
    if (InvalidOwnerError.is(error)) throw new UsageError(`--owner: ${error.message}`)
    throw error
  }
  const logs = await openLogs(url)
  try {
    return await work(webhooksOf(logs, args.owner, { allowPrivateNetworks }))
  } finally {
    await logs.close()
  }
}

const add = defineCommand({
  meta: {
    name: 'add',
    description:
      'Register an endpoint told of each change, and print its signing secret, this once.',
  },
  args: {
    url: { type: 'positional', required: true, valueHint: 'URL', description: 'where to POST' },
    events: {
      type: 'string',
      valueHint: 'LIST',
      description: `comma-separated, of ${WEBHOOK_EVENTS.join(', ')} (default: all)`,
    },
    store: storeArg,
    owner,
  },
  run: async ({ args }) => {
    const events = args.events?.split(',').map((event) => event.trim()) as WebhookEvent[]
    const created = await withWebhooks(args, (hooks) =>
      hooks.add({ url: args.url, events }).catch((error: unknown) => {
        if (!WebhookValidationError.is(error)) throw error
        const issue = (error as WebhookValidationError).issues[0]
        throw new UsageError(`${issue?.path === 'events' ? '--events' : 'URL'}: ${issue?.message}`)
      }),
    )
    process.stderr.write(
      `added ${created.id} for ${created.events.join(', ')}; its signing secret, shown this once:\n`,
    )
    process.stdout.write(`${created.secret}\n`)
  },
})

const list = defineCommand({
  meta: { name: 'list', description: 'Print the endpoints and how their deliveries are doing.' },
  args: {
    store: storeArg,
    owner,
    json: { type: 'boolean', description: 'print the JSON that GET /movies/webhooks answers' },
  },
  run: async ({ args }) => {
    const endpoints = await withWebhooks(args, (hooks) => hooks.list())
    if (args.json) {
      process.stdout.write(`${JSON.stringify(endpoints, null, 2)}\n`)
      return
    }
    if (endpoints.length === 0) process.stderr.write('no endpoints\n')
    for (const endpoint of endpoints) {
      const error = endpoint.lastError
        ? `\n  last error ${endpoint.lastError.at}: ${endpoint.lastError.message}${endpoint.nextAttemptAt ? `; next attempt ${endpoint.nextAttemptAt}` : ''}`
        : ''
      process.stdout.write(
        `${endpoint.id}  ${endpoint.status}  ${endpoint.url}  (${endpoint.events.join(', ')})${error}\n`,
      )
    }
  },
})

const remove = defineCommand({
  meta: { name: 'remove', description: 'Remove an endpoint: no delivery to it starts after.' },
  args: {
    id: { type: 'positional', required: true, valueHint: 'ID', description: "the endpoint's id" },
    store: storeArg,
    owner,
  },
  run: async ({ args }) => {
    if (!(await withWebhooks(args, (hooks) => hooks.remove(args.id)))) {
      throw new Error(`no endpoint ${args.id}: movie-log webhooks list shows them`)
    }
    process.stderr.write(`removed ${args.id}\n`)
  },
})

export default defineCommand({
  meta: {
    name: 'webhooks',
    description:
      'Endpoints told of each movie added, edited or deleted (outgoing; the URLs media servers scrobble to are `movie-log user webhooks`).',
  },
  subCommands: { add, list, remove },
})
