import { build, type Metafile } from 'esbuild'

/** A path of this checkout, for a bundle's imports. */
export const source = (path: string) => new URL(`../${path}`, import.meta.url).pathname

/**
 * A Worker's module bundled the way wrangler bundles one: `contents` is its entry (importing
 * this checkout's sources by `source(path)`); what nodejs_compat provides is left as imports.
 */
export async function bundleWorker(
  contents: string,
): Promise<{ code: string; metafile: Metafile }> {
  const result = await build({
    stdin: { contents, resolveDir: source('.') },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    // What nodejs_compat provides, kept as imports to be seen; keyv's serializer imports buffer.
    external: ['node:*', 'buffer'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  return { code: result.outputFiles[0]?.text ?? '', metafile: result.metafile }
}
