import { createRequire } from 'node:module'
import type * as Superstruct from 'superstruct'

// superstruct's package has no `exports`, so an import reaches its CommonJS build, and the
// first CommonJS package an ES module imports costs about 25 ms of CPU in every process (Node's
// CommonJS support in the ESM loader, its export lexer among it); require() skips all of it
// (bench/NOTES.md, cold start). Installed beside movie-log (a runtime dependency), as
// container.ts loads tsyringe.
const superstruct: typeof Superstruct = createRequire(import.meta.url)('superstruct')

export const { coerce, define, optional, type, unknown, validate } = superstruct
export type { Struct } from 'superstruct'
