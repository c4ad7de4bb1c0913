/**
 * `movie-log catalog load title.basics.tsv.gz [title.akas.tsv.gz]`: IMDb's datasets, as
 * downloaded, streamed into the catalog (gunzipped and read a line at a time: memory stays
 * bounded whatever the size), replacing the one there in one rename.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { createGunzip } from 'node:zlib'
import { defineCommand } from 'citty'
import type { CatalogAka, CatalogTitle } from '../core/catalog-rows'
import {
  akaFromLine,
  type DatasetHeader,
  readDatasetHeader,
  titleFromBasics,
} from '../formats/imdb-datasets'
import { catalogFileOf, loadCatalogFile } from '../store-files'
import { UsageError } from './exit'
import { storeUrl } from './log-store'
import { createProgress } from './progress'
import { storeArg } from './store-arg'

export default defineCommand({
  meta: {
    name: 'load',
    description:
      "Load IMDb's title.basics.tsv.gz (and title.akas.tsv.gz for titles in other languages) into the catalog: beside a SQLite diary, or the SQLite file MOVIE_LOG_CATALOG names.",
  },
  args: {
    basics: {
      type: 'positional',
      required: true,
      description: 'title.basics.tsv.gz, as IMDb publishes it',
    },
    akas: { type: 'positional', required: false, description: 'title.akas.tsv.gz (optional)' },
    store: storeArg,
  },
  run: async ({ args }) => {
    const url = storeUrl(args.store)
    const path = await catalogFileOf(url)
    if (!path) {
      throw new UsageError(
        `a diary in ${url.split(':')[0]} keeps no catalog beside it: name a SQLite file for it in MOVIE_LOG_CATALOG`,
      )
    }
    const report = await loadCatalogFile(path, {
      titles: rowsOf(args.basics, 'basics', titleFromBasics),
      akas: args.akas ? rowsOf(args.akas, 'akas', akaFromLine) : undefined,
    })
    process.stdout.write(
      `Loaded ${report.titles.toLocaleString('en')} movies (${report.names.toLocaleString('en')} titles to match) into ${path}\n`,
    )
  },
})

/** The rows of a dataset file that `read` keeps, with its progress on standard error. */
async function* rowsOf<Row extends CatalogTitle | CatalogAka>(
  file: string,
  kind: DatasetHeader['kind'],
  read: (header: DatasetHeader, line: string) => Row | undefined,
): AsyncGenerator<Row> {
  const size = (await stat(file)).size
  const bytes = createReadStream(file)
  const progress = createProgress(`Loading ${file}`)
  // A file not gzipped (unpacked by hand) is read as it is.
  const gzipped = await startsWithGzip(file)
  const text = gzipped ? bytes.pipe(createGunzip()) : bytes
  bytes.on('error', (error) => text.destroy(error))
  const lines = createInterface({ input: text, crlfDelay: Number.POSITIVE_INFINITY })
  let header: DatasetHeader | undefined
  try {
    for await (const line of lines) {
      if (header === undefined) {
        header = readDatasetHeader(line, file)
        if (header.kind !== kind) {
          throw new UsageError(`${file} is IMDb's title.${header.kind}, not title.${kind}`)
        }
        continue
      }
      if (line === '') continue
      const row = read(header, line)
      if (row) yield row
      progress.update(bytes.bytesRead, size)
    }
    if (header === undefined) throw new UsageError(`${file} is empty`)
  } finally {
    progress.end()
    lines.close()
    bytes.destroy()
  }
}

async function startsWithGzip(file: string): Promise<boolean> {
  const stream = createReadStream(file, { start: 0, end: 1 })
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  const head = Buffer.concat(chunks)
  return head[0] === 0x1f && head[1] === 0x8b
}
