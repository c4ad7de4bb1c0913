/**
 * The diary page's files as served, whatever holds them: read from `dist/page/` (files.ts, on
 * Node, Bun and Deno) or built into a Worker's bundle (handler-worker.ts).
 */

/** Bytes as served: plain, and compressed where the runtime compresses (gzip, brotli). */
export interface Encoded {
  plain: Uint8Array
  gzip?: Uint8Array
  br?: Uint8Array
}

/**
 * How a runtime prepares bytes to serve (an asset's, given its name): compressed once, never per
 * request.
 */
export type Encoder = (bytes: Uint8Array, name?: string) => Encoded

/** One asset as served: its content type and its bytes. */
export interface PageAsset extends Encoded {
  type: string
}

/** The page ready to serve: `index.html` (a template for `toPageHandler`) and its assets. */
export interface DiaryPage {
  html: string
  /** By hashed name: the script, the style, and the service worker (`sw-<hash>.js`). */
  assets: Map<string, PageAsset>
}

/** The content types of what the page is made of. */
export const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

/** The page's files, each encoded once by `encode`. */
export function servable(html: string, files: Map<string, Uint8Array>, encode: Encoder): DiaryPage {
  const assets = new Map<string, PageAsset>()
  for (const [name, bytes] of files) {
    const type = ASSET_TYPES[name.slice(name.lastIndexOf('.'))]
    if (type) assets.set(name, { type, ...encode(bytes, name) })
  }
  return { html, assets }
}
