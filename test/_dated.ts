import type { Movie, MovieLog } from 'movie-log'
import { aMovie } from './_movies'
import type { Listing } from './_store-helpers'

/** Dates at the edges of the periods the ranges name, ties included, added out of date order. */
export const EDGE_DATES = [
  '2024-05-01T20:30:00.000',
  '2023-12-31T23:59:59.999',
  '2024-02-29T23:59:59.999',
  '2025-01-01T00:00:00.000',
  '2024-05-01T20:30:00.000',
  '2024-01-01T00:00:00.000',
  '2023-02-28T23:59:59.999',
  '2024-03-01T00:00:00.000',
  '2024-06-30T23:59:59.999',
  '2024-05-01T20:30:00.000',
  '2024-07-01T00:00:00.000',
  '2023-03-01T00:00:00.000',
  '2024-12-31T23:59:59.999',
  '2024-05-01T20:30:00.001',
  '2024-05-01T20:29:59.999',
]

/** Ranges at each granularity, each with how many of EDGE_DATES it holds. */
export const RANGES: [Listing, number][] = [
  [{}, 15],
  [{ from: '2024', to: '2024' }, 11],
  [{ from: '2024' }, 12],
  [{ to: '2023' }, 3],
  [{ to: '2024-02' }, 5],
  [{ from: '2024-02', to: '2024-02' }, 1],
  [{ from: '2023-02', to: '2023-02' }, 1],
  [{ to: '2023-02-28' }, 1],
  [{ from: '2023-03', to: '2023-03-01' }, 1],
  [{ from: '2024-05-01', to: '2024-05-01' }, 5],
  [{ from: '2024-05-01T20:30:00.000', to: '2024-05-01T20:30:00.000' }, 3],
  [{ from: '2024-05-01T20:30:00.000' }, 8],
  [{ to: '2024-05-01T20:29:59.999' }, 7],
  [{ from: '2024-03', to: '2024-06' }, 7],
  [{ from: '2024-06-30T23:59:59.999', to: '2025' }, 4],
]

export const BAD_SORTS = ['date', 'screeneddate', '+screenedDate', '-added', 'screenedDate ', 'id']
export const BAD_BOUNDS = [
  '24',
  '2024-1',
  '2024-13',
  '2024-00',
  '2024-02-30',
  '2023-02-29',
  '2024-05-01T20:30',
  '2024-05-01T20:30:00',
  '2024-05-01T24:00:00.000',
  '2024-05-01 20:30:00.000',
  '2024-05-01T20:30:00.000Z',
  '2024-05-01T20:30:00.000+02:00',
  'yesterday',
]

/** Adds a movie for each of EDGE_DATES, in that order, titled `Dated <index>`. */
export async function addDated(log: MovieLog): Promise<Movie[]> {
  const added: Movie[] = []
  for (const [n, screenedDate] of EDGE_DATES.entries())
    added.push(await log.addMovie(aMovie({ title: `Dated ${n}`, screenedDate })))
  return added
}
