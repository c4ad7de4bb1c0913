import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// CONTRIBUTING.md's map of the house, held to the tree it draws.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8')

/** The folders the map names: its first code block, indented two spaces per level. */
function mappedFolders(): string[] {
  const block = /## How it is built[\s\S]*?```\n([\s\S]*?)```/.exec(text)?.[1] ?? ''
  const parents: string[] = []
  const folders: string[] = []
  for (const line of block.split('\n')) {
    const match = /^( *)(\S+\/)/.exec(line)
    if (!match) continue
    const depth = (match[1] ?? '').length / 2
    parents.length = depth
    const folder = parents.join('') + match[2]
    parents.push(match[2] as string)
    folders.push(folder.slice(0, -1))
  }
  return folders
}

/** Every folder below `folder` that holds a TypeScript file of its own. */
function sourceFolders(folder: string): string[] {
  const found: string[] = []
  const walk = (dir: string) => {
    const names = readdirSync(join(ROOT, dir))
    if (names.some((name) => name.endsWith('.ts'))) found.push(dir)
    for (const name of names) {
      if (statSync(join(ROOT, dir, name)).isDirectory()) walk(join(dir, name))
    }
  }
  walk(folder)
  return found
}

describe("CONTRIBUTING.md's map of the house", () => {
  const mapped = mappedFolders()

  it('names folders that exist', () => {
    expect(mapped.length).toBeGreaterThan(15)
    expect(mapped.filter((folder) => !existsSync(join(ROOT, folder)))).toEqual([])
  })

  it('names every folder of source', () => {
    const unnamed = ['src', 'adapters', 'examples']
      .flatMap(sourceFolders)
      // An example's own folder (a Worker's project) is the example, named by examples/.
      .filter((folder) => !folder.startsWith('examples/'))
      .filter((folder) => !mapped.includes(folder))
    expect(unnamed).toEqual([])
  })
})
