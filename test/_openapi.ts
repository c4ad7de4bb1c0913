import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import { expect } from 'vitest'
import { createOpenApiDocument } from '../src/http/openapi/document'

// biome-ignore lint/suspicious/noExplicitAny: the document is walked by key; ajv checks what it finds
type Json = Record<string, any>

// Schemas are read from the document itself: a $ref into it is resolved by ajv.
const DOCUMENT_ID = 'urn:movie-log:openapi'
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'] as const

/**
 * Checks responses against the OpenAPI document of a handler mounted at `basePath`, with ajv
 * reading the document's own schemas: the status must be documented for the operation, the
 * required headers present and every documented header and body valid.
 */
export function createResponseChecker(basePath = '/movies'): ResponseChecker {
  let checker = checkers.get(basePath)
  if (!checker) {
    checker = responseChecker(basePath)
    checkers.set(basePath, checker)
  }
  return checker
}

type ResponseChecker = (method: string, url: URL, response: Response) => Promise<void>

// One checker per base path for the whole run: the document is the same for every target
// mounted there, and ajv's compiling its schemas again for each test was a tenth of the CPU of
// `npm test`.
const checkers = new Map<string, ResponseChecker>()

function responseChecker(basePath: string): ResponseChecker {
  const document = createOpenApiDocument(basePath) as Json
  // strict off: the document has OpenAPI keys (paths, components) around its schemas.
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ajv.addSchema(document, DOCUMENT_ID)
  const validators = new Map<string, ValidateFunction>()
  const validatorAt = (pointer: string) => {
    let validate = validators.get(pointer)
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${encodeURI(pointer)}` })
      validators.set(pointer, validate)
    }
    return validate
  }
  const resolve = (value: Json): { value: Json; pointer: string | undefined } => {
    const $ref = value.$ref as string | undefined
    if (!$ref) return { value, pointer: undefined }
    const pointer = $ref.slice(1)
    const found = pointer
      .split('/')
      .slice(1)
      .reduce((node: Json, key) => node[key.replaceAll('~1', '/').replaceAll('~0', '~')], document)
    return { value: found, pointer }
  }
  const check = (pointer: string, data: unknown, what: string) => {
    const validate = validatorAt(pointer)
    const valid = validate(data)
    expect(valid, `${what}: ${ajv.errorsText(validate.errors)}`).toBe(true)
  }

  return async function checkResponse(method, url, response) {
    const found = matchPath(document.paths, url.pathname)
    const what = `${method} ${url.pathname} ${response.status}`
    const body = await readBody(method, response)
    if (!found) {
      // Outside the document (a path below a movie): only a problem can answer it.
      if (body !== undefined) check('/components/schemas/Problem', body.json, what)
      return
    }
    const operationKey = method.toLowerCase() as (typeof METHODS)[number]
    const operation = found.item[operationKey] as Json | undefined
    const operationPointer = `/paths/${pointerSegment(found.template)}/${operationKey}`
    if (!operation) {
      expect(response.status, `${what}: an undocumented method answers 405`).toBe(405)
      const allow = METHODS.filter((name) => found.item[name] && name !== 'options')
      expect(response.headers.get('allow')?.toLowerCase(), what).toBe(allow.join(', '))
      if (body !== undefined) check('/components/schemas/Problem', body.json, what)
      return
    }
    const status = String(response.status)
    const documented = operation.responses[status] as Json | undefined
    expect(documented, `${what}: status not documented`).toBeDefined()
    const { value: documentedResponse, pointer } = resolve(documented as Json)
    const responsePointer = pointer ?? `${operationPointer}/responses/${status}`
    for (const [name, header] of Object.entries((documentedResponse.headers ?? {}) as Json)) {
      const value = response.headers.get(name)
      const { value: definition, pointer: headerPointer } = resolve(header)
      if (value === null) {
        expect(definition.required ?? false, `${what}: header ${name} is required`).toBe(false)
      } else if (definition.schema) {
        const schemaPointer = `${headerPointer ?? `${responsePointer}/headers/${pointerSegment(name)}`}/schema`
        check(schemaPointer, value, `${what}: header ${name}`)
      }
    }
    if (body === undefined) return
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim()
    const content = documentedResponse.content?.[mediaType]
    expect(content, `${what}: ${mediaType || 'a body'} is not documented`).toBeDefined()
    check(`${responsePointer}/content/${pointerSegment(mediaType)}/schema`, body.json, what)
  }
}

function matchPath(paths: Json, pathname: string): { template: string; item: Json } | undefined {
  const templates = Object.keys(paths)
  // Concrete paths first, as OpenAPI says.
  const concrete = templates.find((template) => template === pathname)
  if (concrete) return { template: concrete, item: paths[concrete] }
  for (const template of templates) {
    const pattern = `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`
    if (new RegExp(pattern).test(pathname)) return { template, item: paths[template] }
  }
  return undefined
}

async function readBody(
  method: string,
  response: Response,
): Promise<{ json: unknown } | undefined> {
  if (method === 'HEAD' || response.status === 204 || response.status === 304) return undefined
  let text: string
  try {
    text = await response.text()
  } catch {
    return undefined // a body that broke off (a store failing mid-list): nothing to check
  }
  if (text === '') return undefined
  // Exports (NDJSON, CSV) are documented as text.
  const json = /[/+]json$/.test((response.headers.get('content-type') ?? '').split(';')[0]!.trim())
  return { json: json ? JSON.parse(text) : text }
}

const pointerSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1')
