import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  target: 'node20',
  dts: true,
  // One shared chunk: the error classes are one class whichever entry a user imports.
  splitting: true,
  sourcemap: true,
  clean: true,
})
