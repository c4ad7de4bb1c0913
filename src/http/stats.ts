import type { MovieLog } from '../core/movie-log'
import { jsonReply, type Reply } from './reply'

/** `GET {base}/stats?from=&to=`: the log's statistics (`log.stats`), as JSON. */
export async function statsReply(log: MovieLog, url: URL): Promise<Reply> {
  const { searchParams } = url
  const from = searchParams.get('from') ?? undefined
  const to = searchParams.get('to') ?? undefined
  const stats = await log.stats({ from, to })
  // Counted afresh on every read: the replier's Cache-Control has every cache ask again.
  return jsonReply(200, JSON.stringify(stats), {})
}
