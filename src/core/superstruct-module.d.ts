// The types of superstruct's ES module build are its package's (src/core/superstruct.ts).
declare module 'superstruct/dist/index.mjs' {
  export * from 'superstruct'
}
