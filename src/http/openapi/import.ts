/** `POST {base}/import` in the OpenAPI document: a file of another service's history, or of movies. */
import { IMPORT_TYPES } from '../import-types'
import { headerRef, type JsonSchema, problem, problems, schemaRef } from './components'

const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description })

const report: JsonSchema = {
  type: 'object',
  description: 'What became of a file.',
  required: [
    'kind',
    'added',
    'skipped',
    'refused',
    'matched',
    'unmatched',
    'episodes',
    'trailers',
    'rated',
    'notInDiary',
    'refusals',
    'unmatchedCsv',
  ],
  additionalProperties: false,
  properties: {
    kind: {
      type: 'string',
      enum: ['history', 'ratings', 'movies'],
      description:
        '`history`: a Letterboxd, Trakt or Netflix history, matched to IMDb; `ratings`: Trakt’s ratings, which rate the latest entry of each movie and add none; `movies`: a file of movies (the log’s CSV or NDJSON, an IMDb ratings export, a plug-in’s format).',
    },
    added: count('Rows stored.'),
    skipped: count('Rows already in the diary (imported before): not stored again.'),
    refused: count('Rows refused (`refusals` lists the first 100).'),
    matched: count('Screenings matched to their IMDb entry through the catalog.'),
    unmatched: count(
      'Screenings the catalog matched to none or several IMDb entries (or no catalog is loaded): not stored, in `unmatchedCsv`.',
    ),
    episodes: count(
      'Episodes (and rated shows and seasons) passed over: this is a diary of movies.',
    ),
    trailers: count('Trailers passed over.'),
    rated: count('Of a ratings file: the entries rated, the latest of each movie.'),
    notInDiary: count(
      'Of a ratings file: the movies rated that the diary has no entry of (a rating adds none).',
    ),
    refusals: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        required: ['line', 'issues'],
        properties: {
          line: { type: 'integer', description: 'Where the row is in the file.' },
          issues: {
            type: 'array',
            items: {
              type: 'object',
              required: ['path', 'message'],
              properties: {
                path: { type: 'string', description: 'The file’s own column, or the field.' },
                message: { type: 'string' },
              },
            },
          },
        },
      },
    },
    unmatchedCsv: {
      type: ['string', 'null'],
      description:
        'The unmatched rows as the log’s CSV with a `candidates` column (the catalog’s offers): the person writes each `imdbLink` and imports the file again, and each becomes the same entry. `null` when every row matched.',
    },
  },
}

const progressLine: JsonSchema = {
  type: 'object',
  required: ['progress'],
  properties: {
    progress: {
      type: 'object',
      required: ['done', 'total'],
      properties: {
        done: count('Rows settled (a history), or bytes read (a file of movies).'),
        total: { type: ['integer', 'null'], description: 'Of how many.' },
      },
    },
  },
}

export const IMPORT_SCHEMAS: Record<string, JsonSchema> = { ImportReport: report }

export const importFile: JsonSchema = {
  operationId: 'importFile',
  summary: 'Import a file: a history from another service, or movies',
  description:
    'The file as the service exported it, into the diary the request reaches (guarded as an add, writes from another site refused): a Letterboxd export (the zip, or its diary.csv), a Trakt history or ratings export (CSV or JSON), a Netflix viewing history, an IMDb ratings export, the log’s own CSV or NDJSON, or a plug-in’s format. What it is, is told from its bytes (or `format`). A history’s titles are matched to IMDb through the catalog; a row that matches none or several is not guessed: it is in `unmatchedCsv`. Every row’s id is made from the row, so importing the file again adds nothing. The file is read as it arrives and held whole (at most the handler’s `maxImportBytes`, 32 MiB by default) before any row is stored: a file refused, too large or cut off stores nothing. At most 4 imports run at once (503 past them).',
  tags: ['movies'],
  parameters: [
    {
      name: 'format',
      in: 'query',
      description:
        'What the file is: `auto` (default: told from its bytes), `ndjson`, `csv`, `imdb`, `letterboxd`, `trakt`, `netflix` or a plug-in’s. Another: 400 naming `format`.',
      schema: { type: 'string' },
    },
    {
      name: 'dateFormat',
      in: 'query',
      description:
        'A Netflix history’s day form, such as `MM/DD/YY` or `DD/MM/YYYY`, when its days do not tell (the 400 naming `dateFormat` says which it could be).',
      schema: { type: 'string' },
    },
  ],
  requestBody: {
    required: true,
    content: Object.fromEntries(
      IMPORT_TYPES.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
    ),
  },
  responses: {
    '200': {
      description:
        'The report. With `Accept: application/x-ndjson`, lines as the rows settle: `{"progress":{"done","total"}}`, then `{"report":…}`, or `{"error":…}` (a problem) when the store failed once rows were stored (those stay stored; importing again adds only the rest).',
      content: {
        'application/json': { schema: schemaRef('ImportReport') },
        'application/x-ndjson': {
          schema: {
            type: 'string',
            description: 'Lines of JSON, each one of these.',
            contentSchema: {
              oneOf: [
                progressLine,
                {
                  type: 'object',
                  required: ['report'],
                  properties: { report: schemaRef('ImportReport') },
                },
                {
                  type: 'object',
                  required: ['error'],
                  properties: { error: schemaRef('Problem') },
                },
              ],
            },
          },
        },
      },
    },
    '413': problem(
      'The file is larger than the handler’s `maxImportBytes` (32 MiB by default): nothing is stored.',
    ),
    '415': problem(
      'The file is sent as another type (the `Accept-Post` header lists them), or it is of no format read here (a zip that is not a Letterboxd export, a CSV of other columns): nothing is stored.',
      { 'Accept-Post': headerRef('AcceptPost') },
    ),
    ...problems(
      'BadRequest',
      'Unauthorized',
      'Forbidden',
      'MethodNotAllowed',
      'InternalServerError',
      'ServiceUnavailable',
    ),
  },
}
