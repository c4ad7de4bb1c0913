/**
 * `POST {base}/import`: a file (a Letterboxd zip or diary, a Trakt or Netflix history, an IMDb
 * ratings export, the log's own CSV or NDJSON) into the diary the request reaches, read as
 * `movie-log import` reads it (src/formats/import-file.ts). The file is read as it arrives and
 * held whole (at most `maxImportBytes`) before a row is stored, so that a file refused, too large
 * or cut off stores nothing; its rows are then read a record at a time. Its answer is the report,
 * or with `Accept: application/x-ndjson` progress lines as rows settle, then the report.
 */
import type { Catalog } from '../core/catalog'
import type { MovieLog } from '../core/movie-log'
import { type ImportFileReport, importFile } from '../formats/import-file'
import { importFormatNames } from '../formats/import-reader'
import { ImportFileError } from '../formats/import-refusal'
import { unmatchedCsv } from '../formats/unmatched-csv'
import { readBodyBytes } from './body'
import { IMPORT_TYPES } from './import-types'
import { errorReply, problemReply } from './problem'
import { jsonReply, type Reply } from './reply'
import { isJsonContentType } from './request'

/** What the route is given by the handler. */
export interface ImportSettings {
  maxImportBytes: number
  timeZone: string | undefined
  catalog: Catalog | undefined
  /** The handler's `onError`: a failure met once the answer has begun still reaches it. */
  onError: (error: unknown) => void
}

const NDJSON = 'application/x-ndjson'
// Refused rows listed in the report; past them, only counted.
const REFUSALS_LISTED = 100

/**
 * Answers one import: the report, or the problem that kept the file out; `ended` settles when
 * the import has, which may be after its answer began (progress lines).
 */
export async function importReply(
  log: MovieLog,
  request: Request,
  url: URL,
  settings: ImportSettings,
): Promise<{ reply: Reply; ended: Promise<unknown> }> {
  const imported = await startImport(log, request, url, settings)
  if ('status' in imported) return { reply: imported, ended: Promise.resolve() }
  const ended = imported.ended
  return { reply: await answer(request, imported, settings), ended }
}

interface Started {
  ended: Promise<{ report: ImportFileReport } | { error: unknown }>
  /** Hears each step from now on, the last one first (when there was one). */
  listen: (onProgress: (done: number, total: number | undefined) => void) => void
}

/** The file checked, read and its import begun; or the problem that keeps it out. */
async function startImport(
  log: MovieLog,
  request: Request,
  url: URL,
  settings: ImportSettings,
): Promise<Started | Reply> {
  if (!isJsonContentType(request.headers.get('content-type'), IMPORT_TYPES)) {
    return problemReply(
      415,
      `Send the file as it was exported, as one of ${IMPORT_TYPES.join(', ')} (a text type in UTF-8).`,
      { 'accept-post': IMPORT_TYPES.join(', ') },
    )
  }
  const format = url.searchParams.get('format') ?? 'auto'
  if (!importFormatNames().includes(format)) {
    return refusedParameter('format', `must be one of ${importFormatNames().join(', ')}`)
  }
  const dateFormat = url.searchParams.get('dateFormat') ?? undefined
  const body = await readBodyBytes(request, settings.maxImportBytes)
  if (!body.ok) {
    // A client past the size limit may still be sending: close rather than read the rest.
    const close: Record<string, string> = body.status === 413 ? { connection: 'close' } : {}
    return problemReply(body.status, body.detail, close)
  }
  if (body.bytes.byteLength === 0)
    return problemReply(400, 'The request body is empty: send the file.')
  let onProgress: (done: number, total: number | undefined) => void = () => {}
  let last: [number, number | undefined] | undefined
  const imported = importFile(log, once(body.bytes), {
    name: 'The file',
    format,
    dateFormat,
    timeZone: settings.timeZone,
    catalog: async () => settings.catalog,
    maxHistoryBytes: settings.maxImportBytes,
    size: body.bytes.byteLength,
    onProgress: (done, total) => {
      last = [done, total]
      onProgress(done, total)
    },
  })
  return {
    ended: imported.then(
      (report) => ({ report }),
      (error: unknown) => ({ error }),
    ),
    listen: (listener) => {
      onProgress = listener
      if (last) listener(...last)
    },
  }
}

/**
 * The report, or with `Accept: application/x-ndjson` the progress lines. Their answer begins
 * with the first row settled: a file refused whole is refused before it, with its own status;
 * from then on, what happens is told in the lines.
 */
async function answer(request: Request, started: Started, settings: ImportSettings) {
  const { ended, listen } = started
  if (!NDJSON_ACCEPTED.test(request.headers.get('accept') ?? '')) {
    const end = await ended
    return 'report' in end ? reportReply(end.report) : refusalReply(end.error)
  }
  const begun = new Promise<undefined>((resolve) => listen(() => resolve(undefined)))
  const first = await Promise.race([ended, begun])
  if (first && 'error' in first) return refusalReply(first.error)
  if (first) return ndjsonReply(lines([{ report: reportOf(first.report) }]))
  const stream = progressLines(listen, ended)
  // A failure after the answer began is the handler's to hear of, as any other.
  void ended.then((end) => {
    if ('error' in end && errorReply(end.error).status >= 500) settings.onError(end.error)
  })
  return ndjsonReply(stream)
}

// A request that asks for NDJSON by name, as the page does.
const NDJSON_ACCEPTED = /(^|,)\s*application\/x-ndjson\s*(;|,|$)/i

/** The report as the route answers it. */
function reportOf(report: ImportFileReport) {
  return {
    kind: report.kind,
    added: report.added,
    skipped: report.skipped,
    refused: report.refused.length,
    matched: report.matched,
    unmatched: report.unmatched.length,
    episodes: report.episodes,
    trailers: report.trailers,
    rated: report.rated,
    notInDiary: report.notInDiary,
    refusals: report.refused
      .slice(0, REFUSALS_LISTED)
      .map(({ line, issues }) => ({ line, issues: issues ?? [] })),
    // The file the person corrects and imports again: the log's CSV, with the candidates.
    unmatchedCsv: report.unmatched.length > 0 ? unmatchedCsv(report.unmatched) : null,
  }
}

// The answer's type is the Accept header's choice: caches keep them apart.
const reportReply = (report: ImportFileReport): Reply =>
  jsonReply(200, JSON.stringify(reportOf(report)), { vary: 'accept' })

/** A file refused whole: 415 when it is of no kind read here, else 400, naming what to change. */
function refusalReply(error: unknown): Reply {
  if (!ImportFileError.is(error)) throw error
  const status = error.unsupported ? 415 : 400
  const tryThis = error.suggestion === undefined ? '' : ` (try ${error.suggestion})`
  const errors = error.option && [{ parameter: error.option, detail: `${error.message}${tryThis}` }]
  return problemReply(status, `${error.message}${tryThis}.`, {}, errors || undefined)
}

function refusedParameter(parameter: string, detail: string): Reply {
  return problemReply(400, `The ${parameter} parameter is not valid.`, {}, [{ parameter, detail }])
}

async function* once(bytes: Uint8Array) {
  yield bytes
}

const encoder = new TextEncoder()
const lines = (values: unknown[]) => values.map((value) => `${JSON.stringify(value)}\n`).join('')

function ndjsonReply(body: string | ReadableStream<Uint8Array>): Reply {
  return { status: 200, headers: { 'content-type': NDJSON, vary: 'accept' }, body }
}

/**
 * The lines of an import under way: `{"progress":{"done","total"}}` each time it moves by a
 * hundredth (or, of a total not known, a thousand), then `{"report":…}`, or `{"error":…}` (a
 * problem) when it failed after it began: the rows settled by then stay stored.
 */
function progressLines(
  listen: (onProgress: (done: number, total: number | undefined) => void) => void,
  ended: Promise<{ report: ImportFileReport } | { error: unknown }>,
): ReadableStream<Uint8Array> {
  // Cleared when the client goes away: the import goes on to its end (run again, it adds nothing).
  let open = true
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (value: unknown) => {
        if (open) controller.enqueue(encoder.encode(lines([value])))
      }
      let shown = -1
      listen((done, total) => {
        const step = total ? Math.floor((done / total) * 100) : Math.floor(done / 1000)
        if (step === shown) return
        shown = step
        send({ progress: { done, total: total ?? null } })
      })
      void ended.then((end) => {
        send(
          'report' in end
            ? { report: reportOf(end.report) }
            : { error: JSON.parse(errorReply(end.error).body as string) },
        )
        if (open) controller.close()
        open = false
      })
    },
    cancel() {
      open = false
    },
  })
}
