/**
 * `movie-log share on|off|status`: a diary's share link (`log.share()`), as the page's Share
 * control makes it: `on` makes a new link (the one before stops working at once), `off` turns it
 * off, `status` prints it. The link's path is `/s/<token>` below where the page is served (the
 * server's root: `--url` names it); its listing and feeds are below that path.
 */
import { defineCommand } from 'citty'
import type { ShareLink } from '../index'
import { UsageError } from './exit'
import { openLog, storeUrl } from './log-store'
import { ownerArg, storeArg } from './store-arg'

const ACTIONS = ['on', 'off', 'status'] as const

/** The page's address as people reach it: `--url`, else where `serve` listens. */
function siteUrl(url: string | undefined): string {
  const given = url || `http://${process.env.HOST || '127.0.0.1'}:${process.env.PORT || 3000}/`
  const parsed = URL.canParse(given) ? new URL(given) : undefined
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.search || parsed.hash) {
    throw new UsageError(`--url: '${given}' is not an http:// or https:// URL without a query`)
  }
  return parsed.href.replace(/\/+$/, '')
}

/** The link in lines: the page, its feeds, the choices. */
function linkLines(link: ShareLink, site: string): string {
  const page = `${site}${link.path}`
  const choice = (on: boolean) => (on ? 'yes' : 'no')
  return `${page}\n  rss       ${page}/rss\n  calendar  ${page}/ics\n  notes shown: ${choice(link.notes)}; search engines: ${choice(link.index)}\n`
}

export default defineCommand({
  meta: {
    name: 'share',
    description:
      "Turn a diary's share link on (a new one each time: the old one stops working), off, or print it.",
  },
  args: {
    action: { type: 'positional', required: true, valueHint: 'on|off|status' },
    notes: { type: 'boolean', description: 'on: show the notes (hidden by default)' },
    index: {
      type: 'boolean',
      description: 'on: let search engines index the page (noindex by default)',
    },
    owner: { ...ownerArg, alias: ['user'] },
    store: storeArg,
    url: {
      type: 'string',
      valueHint: 'URL',
      description:
        'where the page is served, for the link printed (default: http://HOST:PORT/, as serve)',
    },
  },
  run: async ({ args }) => {
    const action = ACTIONS.find((each) => each === args.action)
    if (!action) throw new UsageError(`ACTION: '${args.action}' is not one of on, off, status`)
    if (action !== 'on' && (args.notes || args.index)) {
      throw new UsageError('--notes and --index are choices of share on')
    }
    const site = siteUrl(args.url)
    const { log, close } = await openLog(storeUrl(args.store), args.owner)
    try {
      if (action === 'on') {
        const link = await log.share({ notes: args.notes === true, index: args.index === true })
        process.stdout.write(linkLines(link, site))
      } else if (action === 'off') {
        const was = await log.unshare()
        process.stderr.write(
          was
            ? 'sharing is off: the link no longer opens the diary\n'
            : 'sharing was off already\n',
        )
      } else {
        const link = await log.shared()
        if (link) process.stdout.write(linkLines(link, site))
        else process.stderr.write('sharing is off: movie-log share on makes a link\n')
      }
    } finally {
      await close()
    }
  },
})
