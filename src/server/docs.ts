/**
 * The API reference at /docs: the handler's OpenAPI document rendered on the server into one
 * HTML page with no script and nothing from another host (docs/guide/page.md, "The API
 * reference", says why this and not Redoc or Scalar).
 */
import { createOpenApiDocument } from '../http/openapi/document'

type Node = Record<string, unknown>
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options']

/** The reference page of a handler mounted at `basePath`. */
export function renderDocs(basePath: string): string {
  const document = createOpenApiDocument(basePath) as Node
  const info = document.info as Node
  const paths = document.paths as Record<string, Node>
  const schemas = ((document.components as Node).schemas ?? {}) as Record<string, Node>
  const resolve = (node: Node): Node => {
    const ref = node.$ref
    if (typeof ref !== 'string') return node
    return resolve(
      ref
        .slice(2)
        .split('/')
        .reduce<Node>((at, key) => at[key] as Node, document),
    )
  }
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) =>
      operation(path, method, item[method] as Node, (item.parameters ?? []) as Node[], resolve),
    ),
  )
  const toc = Object.entries(paths)
    .map(([path, item]) => {
      const methods = METHODS.filter((method) => item[method])
      return `<li><a href="#${anchor(path, methods[0] ?? '')}"><code>${text(path)}</code></a> ${methods.map((m) => m.toUpperCase()).join(' ')}</li>`
    })
    .join('')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text(String(info.title))} API reference</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/docs.css"></head>
<body><header><h1>${text(String(info.title))} API reference</h1>
<p>${prose(String(info.summary ?? ''))} ${prose(String(info.description ?? ''))}</p>
<p>OpenAPI ${text(String(document.openapi))} document: <a href="${text(basePath)}/openapi.json">${text(basePath)}/openapi.json</a> · <a href="/">the diary</a></p></header>
<main><nav aria-labelledby="paths-heading"><h2 id="paths-heading">Paths</h2><ul>${toc}</ul></nav>
${operations.join('\n')}
<section aria-labelledby="schemas-heading"><h2 id="schemas-heading">Schemas</h2>
${Object.entries(schemas)
  .map(
    ([name, schema]) =>
      `<h3 id="schema-${text(name)}">${text(name)}</h3><pre tabindex="0">${text(JSON.stringify(schema, null, 2))}</pre>`,
  )
  .join('\n')}
</section></main></body></html>
`
}

function operation(
  path: string,
  method: string,
  op: Node,
  shared: Node[],
  resolve: (node: Node) => Node,
): string {
  const parameters = [...shared, ...((op.parameters ?? []) as Node[])].map(resolve)
  const body = op.requestBody ? resolve(op.requestBody as Node) : undefined
  const responses = Object.entries((op.responses ?? {}) as Record<string, Node>)
  const rows = parameters
    .map(
      (p) =>
        `<tr><td><code>${text(String(p.name))}</code></td><td>${text(String(p.in))}</td><td>${p.required ? 'yes' : 'no'}</td><td>${schemaOf(p.schema as Node)}</td><td>${prose(String(p.description ?? ''))}</td></tr>`,
    )
    .join('')
  return `<section class="operation" id="${anchor(path, method)}" aria-labelledby="${anchor(path, method)}-h">
<h2 id="${anchor(path, method)}-h"><span class="method">${method.toUpperCase()}</span> <code>${text(path)}</code></h2>
<p>${prose(String(op.summary ?? ''))}${op.description ? ` ${prose(String(op.description))}` : ''}</p>
${rows ? `<table><caption>Parameters</caption><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Required</th><th scope="col">Schema</th><th scope="col">About</th></tr></thead><tbody>${rows}</tbody></table>` : ''}
${body ? `<h3>Request body</h3>${content(body.content as Node)}` : ''}
<h3>Responses</h3><dl>${responses
    .map(([status, response]) => {
      const r = resolve(response)
      const headers = Object.entries((r.headers ?? {}) as Record<string, Node>)
        .map(
          ([name, header]) =>
            `<code>${text(name)}</code>: ${prose(String(resolve(header).description ?? ''))}`,
        )
        .join('<br>')
      return `<dt>${text(status)}</dt><dd>${prose(String(r.description ?? ''))}${headers ? `<br>${headers}` : ''}${r.content ? content(r.content as Node) : ''}</dd>`
    })
    .join('')}</dl></section>`
}

function content(types: Node | undefined): string {
  return Object.entries((types ?? {}) as Record<string, Node>)
    .map(([type, media]) => `<p><code>${text(type)}</code> ${schemaOf(media.schema as Node)}</p>`)
    .join('')
}

// A named schema links to its section below; an inline one reads as compact JSON.
function schemaOf(schema: Node | undefined): string {
  if (!schema) return ''
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop() ?? ''
    return `<a href="#schema-${text(name)}">${text(name)}</a>`
  }
  return `<code>${text(JSON.stringify(schema))}</code>`
}

const anchor = (path: string, method: string) =>
  `${method}-${path.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '')}`

function text(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

// Descriptions use `code` spans; everything else stays text.
function prose(value: string): string {
  return text(value).replace(/`([^`]+)`/g, '<code>$1</code>')
}

/** The reference page's style, served at /docs.css (no inline style: the CSP allows none). */
export const DOCS_CSS = `body{margin:0;font:1rem/1.5 system-ui,sans-serif;color:#1b1b1f;background:#fbfaf7}
header,main{max-width:1100px;margin:0 auto;padding:1rem}a{color:#0b5c8a}
:focus-visible{outline:3px solid #c25700;outline-offset:2px}
.operation{background:#fff;border:1px solid #c9c6bd;border-radius:8px;padding:1rem;margin:1rem 0;overflow-x:auto}
.method{display:inline-block;min-width:5.5rem;padding:0 .4rem;border-radius:4px;background:#0b5c8a;color:#fff;font-size:.9rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #c9c6bd;padding:.3rem .5rem;text-align:left;vertical-align:top}
caption{text-align:left;font-weight:600}dt{font-weight:700;margin-top:.5rem}dd{margin-left:1.5rem}
pre{background:#fff;border:1px solid #c9c6bd;padding:.75rem;overflow-x:auto;font-size:.85rem}
`
