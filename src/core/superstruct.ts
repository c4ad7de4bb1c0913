// superstruct's ES module build, named by its package's `module` field. Its package has no
// `exports` and its `main` is CommonJS, which Node would take for `superstruct`: the first
// CommonJS package an ES module imports costs some 15 ms of CPU in every process (Node's
// CommonJS support in the ESM loader), this file about 1 (bench/NOTES.md, cold start).
// Bundlers take the same file for `superstruct`.

export type { Struct } from 'superstruct'
export { coerce, define, optional, type, unknown, validate } from 'superstruct/dist/index.mjs'
