import { createReadStream, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { zipSync } from 'fflate'
import { readImport } from '../src/formats/import-reader'

// What import tests share: a file read as the command reads it, and the fixtures as services give them.
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url))

/** The rows of a file of movies (NDJSON, CSV), read as `movie-log import` reads them. */
export async function readRows(file: string, format: string) {
  const source = await readImport(createReadStream(file), format, file, 256 * 1024 * 1024)
  if (source.kind !== 'rows') throw new Error(`${file} is a ${source.format} history`)
  return source
}

/** test/fixtures/letterboxd zipped as Letterboxd gives it, its files and folders at the root. */
export function letterboxdZipBytes(): Uint8Array<ArrayBuffer> {
  const folder = join(FIXTURES, 'letterboxd')
  const files: Record<string, Uint8Array> = {}
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else files[relative(folder, path)] = readFileSync(path)
    }
  }
  walk(folder)
  return zipSync(files) as Uint8Array<ArrayBuffer>
}

/** The Letterboxd zip written into `dir` under the name Letterboxd gives it; its path. */
export function letterboxdZip(dir: string): string {
  const zip = join(dir, 'letterboxd-cinephile-2024-06-01-10-00-utc.zip')
  writeFileSync(zip, letterboxdZipBytes())
  return zip
}
