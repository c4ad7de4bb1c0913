/**
 * A catalog built from the IMDb fixtures (test/fixtures/imdb-datasets/), read with the same
 * functions the command uses, without starting it.
 */
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import type { CatalogAka, CatalogTitle } from '../src/core/catalog-rows'
import {
  akaFromLine,
  type DatasetHeader,
  readDatasetHeader,
  titleFromBasics,
} from '../src/formats/imdb-datasets'
import { loadCatalogFile } from '../src/store-files'

const FIXTURES = new URL('./fixtures/imdb-datasets/', import.meta.url)

function* rows<Row>(file: string, read: (header: DatasetHeader, line: string) => Row | undefined) {
  const [first = '', ...lines] = gunzipSync(readFileSync(new URL(file, FIXTURES)))
    .toString('utf8')
    .split('\n')
  const header = readDatasetHeader(first, file)
  for (const line of lines) {
    const row = line ? read(header, line) : undefined
    if (row) yield row
  }
}

async function* each<Row>(rows: Iterable<Row>): AsyncGenerator<Row> {
  yield* rows
}

/** Loads the fixtures' catalog into the SQLite file at `path`. */
export async function loadFixtureCatalog(path: string): Promise<void> {
  await loadCatalogFile(path, {
    titles: each<CatalogTitle>(rows('title.basics.tsv.gz', titleFromBasics)),
    akas: each<CatalogAka>(rows('title.akas.tsv.gz', akaFromLine)),
  })
}
