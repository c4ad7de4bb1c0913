/**
 * `npm run bench:scale`: the scale run alone (what `npm run bench` ends with), printing its rows.
 * BENCH_SIZES (1000,10000,100000) as for the whole bench; BENCH_POSTGRES_ADMIN_URL.
 */
import { scaleRun } from './scale'

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number)
const rows = await scaleRun(SIZES, (line) => console.log(`[bench] ${line}`))
console.table(rows)
