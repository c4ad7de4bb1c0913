/** `GET {base}/catalog?q=&year=` in the OpenAPI document: IMDb entries for a title. */
import { type JsonSchema, problems } from './components'
import { READ_PROBLEMS } from './operations'

const ENTRY: JsonSchema = {
  type: 'object',
  required: ['imdbLink', 'title', 'originalTitle'],
  properties: {
    imdbLink: {
      type: 'string',
      format: 'uri',
      pattern: '^https://www\\.imdb\\.com/title/tt\\d{7,10}/$',
    },
    title: { type: 'string', description: 'IMDb’s title (`primaryTitle`).' },
    originalTitle: { type: 'string', description: 'The title in its original language.' },
    year: { type: 'integer', description: 'Its year (IMDb’s `startYear`); absent when unknown.' },
    runtimeMinutes: { type: 'integer', description: 'Absent when unknown.' },
    match: {
      type: 'string',
      enum: ['title', 'original', 'aka', 'start'],
      description:
        'How its title met `q`: its own title, its original title, another of its titles (another language’s), or a title starting with the words.',
    },
  },
}

export const findInCatalog: JsonSchema = {
  operationId: 'findInCatalog',
  summary: 'IMDb entries for a title',
  description:
    'Up to 10 IMDb entries (movies and TV movies) from the catalog `movie-log catalog load` loaded, best first: the same title and year, then the original or another-language title, then a year off, then another year, then titles starting with the words (case, accents and punctuation ignored). Guarded as the list is. Without a catalog: 404 whose detail names `movie-log catalog load`.',
  tags: ['movies'],
  parameters: [
    {
      name: 'q',
      in: 'query',
      required: true,
      description:
        'A title as a person or a service wrote it. Empty, or over 500 characters: 400 naming `q`.',
      schema: { type: 'string', minLength: 1, maxLength: 500 },
      examples: { title: { value: 'amelie' } },
    },
    {
      name: 'year',
      in: 'query',
      description: 'Its year, when known (four digits; else 400 naming `year`).',
      schema: { type: 'string', pattern: '^\\d{4}$' },
    },
  ],
  responses: {
    '200': {
      description: 'The candidates, best first (none: an empty array).',
      content: { 'application/json': { schema: { type: 'array', items: ENTRY } } },
    },
    ...problems('CatalogNotLoaded'),
    ...READ_PROBLEMS,
  },
}
