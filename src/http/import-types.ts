/**
 * The types a file may be sent to `POST {base}/import` as: what it is, is told from its bytes
 * (or `format`). Its own module: the route and the OpenAPI document both name them, and the
 * document must not load the route's readers.
 */
export const IMPORT_TYPES = [
  'application/zip',
  'application/x-zip-compressed',
  'text/csv',
  'application/json',
  'application/x-ndjson',
  'application/octet-stream',
]
