import type { BuildOptions } from 'esbuild'

/**
 * esbuild's options as wrangler bundles a Worker with `nodejs_compat`: the worker conditions,
 * Node's built-ins left to the runtime (keyv's serializer imports `buffer` by its bare name).
 */
export const WRANGLER_BUNDLE: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  external: ['node:*', 'buffer'],
  write: false,
  logLevel: 'silent',
}
