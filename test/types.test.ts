import { createMovieLog, type Movie, MovieValidationError, type NewMovie } from 'movie-log'
import { expect, expectTypeOf, it } from 'vitest'

// npm test type-checks this file: an @ts-expect-error with no error under it fails the run.
it('types addMovie’s input as NewMovie, and still checks it at run time', async () => {
  const log = createMovieLog()
  expectTypeOf(log.addMovie).parameter(0).toEqualTypeOf<NewMovie>()
  expectTypeOf(log.addMovie).returns.resolves.toEqualTypeOf<Movie>()

  // @ts-expect-error: a misspelt field is a type error
  const error = await log.addMovie({ titel: 'x' }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(MovieValidationError)
  expect((error as MovieValidationError).issues.map((issue) => issue.path)).toContain('titel')
})
