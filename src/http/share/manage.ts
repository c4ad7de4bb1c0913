/**
 * `{base}/share`: the owner's own share link. `GET` reads it (404 while sharing is off), `POST`
 * turns it on or makes a new one (`{ "notes"?: boolean, "index"?: boolean }`; the link before
 * is revoked at once), `DELETE` turns it off. Each answer names where the link's listing and
 * feeds are, below `{base}/s/<token>`.
 */
import type { MovieLog, ShareableMovieLog } from '../../core/movie-log'
import type { ShareLink, ShareOptions } from '../../core/share'
import { readJsonBody } from '../body'
import { type ProblemFieldError, problemReply } from '../problem'
import { jsonReply, type Reply } from '../reply'
import { isJsonContentType } from '../request'

const CHOICES = new Set(['notes', 'index'])

/** Answers the owner's request on their share link; `base` is `{origin}{base}`. */
export async function replyToShareLink(
  log: MovieLog,
  request: Request,
  base: string,
  maxBodyBytes: number,
): Promise<Reply> {
  const sharing = log as Partial<ShareableMovieLog>
  if (typeof sharing.share !== 'function') {
    return problemReply(404, 'This log has no share link: it was not made by createMovieLog(s).')
  }
  const owned = log as ShareableMovieLog
  if (request.method === 'DELETE') {
    await owned.unshare()
    return { status: 204, headers: {}, body: null }
  }
  if (request.method !== 'POST') {
    const link = await owned.shared()
    return link ? linkReply(link, base) : problemReply(404, 'Sharing is off.')
  }
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return problemReply(415, 'Send the choices as application/json (charset utf-8, if any).')
  }
  const body = await readJsonBody(request, maxBodyBytes)
  if (!body.ok) return problemReply(body.status, body.detail)
  const choices = choicesOf(body.value)
  if (!Array.isArray(choices)) return linkReply(await owned.share(choices), base)
  return problemReply(400, 'The choices are not what a share link takes.', {}, choices)
}

/** `{ notes?, index? }`, booleans; else each problem, by its pointer. */
function choicesOf(value: unknown): ShareOptions | ProblemFieldError[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ pointer: '', detail: 'must be a JSON object' }]
  }
  const problems: ProblemFieldError[] = []
  for (const [name, choice] of Object.entries(value)) {
    const pointer = `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`
    if (!CHOICES.has(name)) {
      problems.push({ pointer, detail: 'is not a choice of a share link (notes, index)' })
    } else if (typeof choice !== 'boolean') {
      problems.push({ pointer, detail: 'must be true or false' })
    }
  }
  return problems.length > 0 ? problems : (value as ShareOptions)
}

function linkReply(link: ShareLink, base: string): Reply {
  const at = `${base}/s/${link.token}`
  const body = { ...link, movies: `${at}/movies`, rss: `${at}/rss`, ics: `${at}/ics` }
  return jsonReply(200, JSON.stringify(body), {})
}
