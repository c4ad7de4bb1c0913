import { createMovieLog } from 'movie-log'
import { toH3Handler } from 'movie-log/h3'
import { type MovieLogHttpOptions, toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'

const adapters = [
  ['toWebHandler', toWebHandler],
  ['toH3Handler', toH3Handler],
] as const

describe.each(adapters)('%s refuses options it could only misread', (_, adapter) => {
  it.each([
    [
      'a query',
      { basePath: '/movies?all=1' },
      /options\.basePath must be a path, without '\?' or '#'/,
    ],
    ['a fragment', { basePath: '/movies#list' }, /options\.basePath must be a path/],
    ['a basePath that is not text', { basePath: 42 as unknown as string }, /options\.basePath/],
    [
      'a maxBodyBytes of 0',
      { maxBodyBytes: 0 },
      /options\.maxBodyBytes must be a positive integer, not 0/,
    ],
    [
      'a negative maxPageSize',
      { maxPageSize: -1 },
      /options\.maxPageSize must be a positive integer, not -1/,
    ],
    [
      'a fractional maxPageSize',
      { maxPageSize: 1.5 },
      /options\.maxPageSize must be a positive integer/,
    ],
    [
      'a maxConcurrentAdds of NaN',
      { maxConcurrentAdds: Number.NaN },
      /options\.maxConcurrentAdds must be a positive integer, not NaN/,
    ],
    [
      'a maxBodyBytes given as text',
      { maxBodyBytes: '1024' as unknown as number },
      /options\.maxBodyBytes/,
    ],
  ])('with %s', (_, options: MovieLogHttpOptions, message) => {
    expect(() => adapter(createMovieLog(), options)).toThrow(TypeError)
    expect(() => adapter(createMovieLog(), options)).toThrow(message)
  })

  it('takes every option at its smallest sensible value', () => {
    const options = { basePath: '/', maxBodyBytes: 1, maxPageSize: 1, maxConcurrentAdds: 1 }
    expect(() => adapter(createMovieLog(), options)).not.toThrow()
  })
})
