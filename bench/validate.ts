/**
 * One movie's validation, µs per call: the hand-written path an add takes for a valid movie
 * (`parseNewMovie`) against the same rules composed by superstruct (`parseWithSuperstruct`),
 * which reports every failure. Alternating rounds in one process, so both live through the same
 * drift of a shared machine: `node --import tsx bench/validate.ts` (`VALIDATE_ROUNDS` 15,
 * `VALIDATE_CALLS` 200,000). What a POST costs in all: `bench/adds.ts`.
 */
import { parseNewMovie, parseWithSuperstruct } from '../src/core/movie'
import { median } from './median'

const rounds = Number(process.env.VALIDATE_ROUNDS ?? 15)
const calls = Number(process.env.VALIDATE_CALLS ?? 200_000)
const movie = {
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
  notes: 'Seen at the Prince Charles.',
}

// A fresh object per call, as each request body is.
function microsPerCall(parse: (input: object) => unknown): number {
  const started = process.hrtime.bigint()
  for (let call = 0; call < calls; call++) parse({ ...movie })
  return Number(process.hrtime.bigint() - started) / 1000 / calls
}

const paths = { hand: parseNewMovie, superstruct: parseWithSuperstruct }
const times: Record<keyof typeof paths, number[]> = { hand: [], superstruct: [] }
for (const parse of Object.values(paths)) microsPerCall(parse) // warm-up
for (let round = 0; round < rounds; round++) {
  const order =
    round % 2 === 0 ? (['hand', 'superstruct'] as const) : (['superstruct', 'hand'] as const)
  for (const name of order) times[name].push(microsPerCall(paths[name]))
}
const hand = median(times.hand)
const superstruct = median(times.superstruct)
console.log(
  `µs per valid movie (median of ${rounds} rounds of ${calls}): hand ${hand.toFixed(3)}, superstruct ${superstruct.toFixed(3)} (${(superstruct / hand).toFixed(1)}x)`,
)
