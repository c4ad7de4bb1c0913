import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The layout README "How it is built" describes, checked on the source itself.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MAX_LINES = 200

const sources = ['src', 'adapters'].flatMap((folder) =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file)),
)

/** The source files a file imports (relative imports, resolved to files of the tree). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const found: string[] = []
  for (const [, target] of text.matchAll(/from '(\.[^']+)'/g)) {
    const base = relative(ROOT, resolve(ROOT, dirname(file), target as string))
    const match = [`${base}.ts`, join(base, 'index.ts')].find((name) => sources.includes(name))
    if (match) found.push(match)
  }
  return found
}

const graph = new Map(sources.map((file) => [file, importsOf(file)]))

function cycles(): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const walk = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return
    if (state.get(file) === 'open') {
      found.push([...path.slice(path.indexOf(file)), file])
      return
    }
    state.set(file, 'open')
    for (const next of graph.get(file) ?? []) walk(next, [...path, file])
    state.set(file, 'done')
  }
  for (const file of sources) walk(file, [])
  return found
}

describe('the source layout', () => {
  it('has no import cycle', () => {
    expect(sources.length).toBeGreaterThan(20)
    expect(cycles()).toEqual([])
  })

  it('has no file over 200 lines', () => {
    const long = sources.filter(
      (file) => readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n').length > MAX_LINES,
    )
    expect(long).toEqual([])
  })

  it('keeps HTTP out of the core and the drivers, and drivers out of HTTP', () => {
    const crossings = [...graph].flatMap(([file, imports]) =>
      imports
        .filter(
          (target) =>
            ((file.startsWith('src/core/') || file.startsWith('src/drivers/')) &&
              target.startsWith('src/http/')) ||
            (file.startsWith('src/http/') && target.startsWith('src/drivers/')),
        )
        .map((target) => `${file} -> ${target}`),
    )
    expect(crossings).toEqual([])
  })
})
