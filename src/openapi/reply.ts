import { jsonReply, type Reply } from '../http/reply'
import { createOpenApiDocument } from './document'

/**
 * The reply that serves the document of a handler mounted at `basePath` (percent-encoded, as
 * hosts send paths). Written once, on first request: most handlers are never asked for it.
 */
export function createOpenApiReply(basePath: string): () => Reply {
  let text: string | undefined
  return () => {
    text ??= JSON.stringify(createOpenApiDocument(basePath))
    return jsonReply(200, text, { vary: 'accept' })
  }
}
