/** A file imported into a movie-log server's diary, over HTTP (`POST {base}/import`). */
import { type MovieLogClientOptions, sendOptionsOf } from './client'
import { errorFrom, type ProblemDetails } from './errors'

/**
 * What became of a file, as `POST {base}/import` reports it.
 *
 * @example
 * ```ts
 * const { added, skipped, unmatched, unmatchedCsv }: FileImportReport = await importFile(url, file)
 * ```
 */
export interface FileImportReport {
  /** `history` (Letterboxd, Trakt, Netflix: matched to IMDb), `ratings` (Trakt's) or `movies`. */
  kind: 'history' | 'ratings' | 'movies'
  added: number
  /** Rows in the diary already: an import run again adds nothing. */
  skipped: number
  refused: number
  /** Screenings matched through the server's IMDb catalog. */
  matched: number
  /** Screenings no one IMDb entry matched: in `unmatchedCsv`, to correct and import again. */
  unmatched: number
  episodes: number
  trailers: number
  /** Of a ratings file: the entries rated (the latest of each movie). */
  rated: number
  /** Of a ratings file: movies rated that the diary has no entry of (a rating adds none). */
  notInDiary: number
  /** The first 100 refused rows, by their line in the file. */
  refusals: { line: number; issues: { path: string; message: string }[] }[]
  /** The unmatched rows as the log's CSV with a `candidates` column; `null` when none. */
  unmatchedCsv: string | null
}

/**
 * Options of `importFile`: the client's (`fetch`, `headers`), and how to read the file. It is
 * sent once: no retry and no timeout (an import of years takes a while, and a second run would
 * add nothing; call it again after a 503).
 *
 * @example
 * ```ts
 * const options: ImportFileOptions = { dateFormat: 'DD/MM/YYYY', onProgress: (done, total) => {} }
 * ```
 */
export interface ImportFileOptions extends Pick<MovieLogClientOptions, 'fetch' | 'headers'> {
  /** What the file is: `auto` (default, told from its bytes), `letterboxd`, `trakt`, `netflix`, ... */
  format?: string
  /** A Netflix history's day form, such as `DD/MM/YYYY`, when its days do not tell. */
  dateFormat?: string
  /** Called as rows settle: how many (bytes of a file of movies), and of how many. */
  onProgress?: (done: number, total: number | null) => void
}

/**
 * Imports `file` into the diary of the log mounted at `url`, as the server's `movie-log import`
 * would. A file refused whole throws (`MovieLogHttpError` with its problem: 400 naming `format`
 * or `dateFormat`, 413, 415); nothing of it is stored. Browser-safe.
 *
 * @example
 * ```ts
 * import { importFile } from 'movie-log/client'
 *
 * const report = await importFile('http://127.0.0.1:3000/movies', zip, { onProgress: console.log })
 * ```
 */
export async function importFile(
  url: string | URL,
  file: BodyInit,
  options: ImportFileOptions = {},
): Promise<FileImportReport> {
  const target = new URL(`${String(url).replace(/\/+$/, '')}/import`)
  if (options.format) target.searchParams.set('format', options.format)
  if (options.dateFormat) target.searchParams.set('dateFormat', options.dateFormat)
  const headers = new Headers(options.headers)
  headers.set('content-type', 'application/octet-stream')
  headers.set('accept', options.onProgress ? 'application/x-ndjson' : 'application/json')
  const { fetch } = sendOptionsOf(options)
  const response = await fetch(target, { method: 'POST', body: file, headers })
  if (response.status !== 200) throw await errorFrom(response, 'importFile')
  if (!options.onProgress) return (await response.json()) as FileImportReport
  for await (const line of linesOf(response)) {
    const { progress, report, error } = JSON.parse(line) as {
      progress?: { done: number; total: number | null }
      report?: FileImportReport
      error?: ProblemDetails
    }
    if (report) return report
    // The store failed after rows were stored: the problem as its own status would have said it.
    if (error)
      throw await errorFrom(
        new Response(null, { status: error.status ?? 500 }),
        'importFile',
        error,
      )
    if (progress) options.onProgress(progress.done, progress.total)
  }
  throw new TypeError('importFile: the answer ended before its report')
}

/** The lines of a body, as they arrive. */
async function* linesOf(response: Response): AsyncGenerator<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    text += decoder.decode(value, { stream: !done })
    const lines = text.split('\n')
    text = lines.pop() as string
    for (const line of lines) if (line.trim()) yield line
    if (done) break
  }
  if (text.trim()) yield text
}
