// Issue 36: the memory index counts a change's words and counters when search or statistics read
// them, not at the write. Whatever the changes, what a read counts is what the movies hold.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { byDate, byId } from '../src/core/driver'
import type { Movie } from '../src/core/movie'
import {
  countedTerms,
  createMemoryIndex,
  drop,
  insert,
  keep,
  queuedChanges,
} from '../src/drivers/memory/log-index'
import { countTerms, createMemoryTerms } from '../src/drivers/shared/process-terms'
import { aMovie } from './_movies'

const movieOf = (id: number, title: string, month: number): Movie =>
  ({
    ...aMovie({ title, screenedDate: `2024-${String(month).padStart(2, '0')}-01T20:30:00.000` }),
    id: `0000-${String(id).padStart(4, '0')}`,
  }) as Movie

/** The words and counters of these movies, counted from nothing. */
function termsOfMovies(movies: Iterable<Movie>) {
  const terms = createMemoryTerms()
  for (const movie of movies) countTerms(terms, movie, 1)
  return terms
}

describe('the memory index', () => {
  it('counts the movies it was made with when its terms are first read', () => {
    const movies = [movieOf(1, 'Heat', 5), movieOf(2, 'Alien', 6), movieOf(3, 'Heat Wave', 7)]
    const index = createMemoryIndex(movies)
    expect(queuedChanges(index)).toBe(3)
    expect(countedTerms(index)).toEqual(termsOfMovies(movies))
  })

  it('counts an add when its terms are read, not when it is written', () => {
    const index = createMemoryIndex([movieOf(1, 'Heat', 5)])
    keep(index, movieOf(2, 'Alien', 6))
    expect(index.terms.words.size).toBe(0)
    expect(countedTerms(index).words.get('alien')).toEqual(new Set(['0000-0002']))
    expect(index.uncounted).toHaveLength(0)
  })

  it('after any adds, edits and deletes, reads the terms its movies hold', () => {
    const change = fc.record({
      id: fc.integer({ min: 1, max: 12 }),
      title: fc.constantFrom('Heat', 'Alien', 'Heat Wave', 'The Thing'),
      month: fc.integer({ min: 1, max: 12 }),
      gone: fc.boolean(),
      read: fc.boolean(),
    })
    fc.assert(
      fc.property(fc.array(change, { maxLength: 60 }), (changes) => {
        const index = createMemoryIndex([])
        for (const { id, title, month, gone, read } of changes) {
          const movie = movieOf(id, title, month)
          if (gone) drop(index, movie)
          else keep(index, movie)
          if (read) countedTerms(index)
        }
        expect(countedTerms(index)).toEqual(termsOfMovies(index.byId.values()))
      }),
    )
  })

  it('keeps its movies in id order and in date order, wherever an add or edit belongs', () => {
    // Adds mostly belong near the end (found by stepping back from it), some anywhere.
    const change = fc.record({
      id: fc.integer({ min: 1, max: 200 }),
      month: fc.oneof(fc.integer({ min: 10, max: 12 }), fc.integer({ min: 1, max: 12 })),
      gone: fc.boolean(),
    })
    fc.assert(
      fc.property(fc.array(change, { maxLength: 120 }), (changes) => {
        const index = createMemoryIndex([])
        for (const { id, month, gone } of changes) {
          const movie = movieOf(id, 'Heat', month)
          if (gone) drop(index, movie)
          else if (index.byId.has(movie.id)) keep(index, movie)
          else insert(index, movie)
        }
        const movies = [...index.byId.values()]
        expect(index.added).toEqual([...movies].sort(byId))
        expect(index.dated).toEqual([...movies].sort(byDate))
      }),
    )
  })

  it('holds about one queued change per movie however often one movie is edited', () => {
    const index = createMemoryIndex([movieOf(1, 'Heat', 5)])
    for (let n = 0; n < 5000; n++) {
      keep(index, movieOf(1, n % 2 === 0 ? 'Alien' : 'Heat', 5))
      expect(queuedChanges(index)).toBeLessThanOrEqual(index.byId.size + 1026)
    }
    expect(countedTerms(index)).toEqual(termsOfMovies(index.byId.values()))
  })
})
