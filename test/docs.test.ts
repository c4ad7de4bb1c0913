import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ENTRIES, exportedNames } from './_exports'

// The manual in docs/: its API tables against the package's exports, and its included snippets
// against the files in docs/snippets/ (which `npm run docs:check` compiles against dist/).
const DOCS = new URL('../docs/', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, DOCS), 'utf8')

/** The names docs/reference/api.md lists under each entry's `### \`entry\`` heading. */
function documentedNames(api: string): Record<string, string[]> {
  const documented: Record<string, string[]> = {}
  for (const section of api.split(/^### /m).slice(1)) {
    const entry = /^`([^`]+)`/.exec(section)?.[1] ?? ''
    documented[entry] = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]!).sort()
  }
  return documented
}

/** Every markdown page of the site, as a path below docs/. */
function pages(): string[] {
  return readdirSync(DOCS, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md') && !path.startsWith('.vitepress'))
    .sort()
}

describe('the docs', () => {
  it('document every export of every entry in reference/api.md, and nothing that is not exported', () => {
    const documented = documentedNames(read('reference/api.md'))
    expect(Object.keys(documented).sort()).toEqual(Object.keys(ENTRIES).sort())
    expect(documented).toEqual(exportedNames())
  })

  it('include snippets that exist, each with its region; every snippet is shown somewhere', () => {
    const included = new Set<string>()
    for (const page of pages()) {
      for (const [, file, region] of read(page).matchAll(
        /^\s*<<< @\/snippets\/([\w-]+\.ts)#(\w+)/gm,
      )) {
        const path = new URL(`snippets/${file}`, DOCS)
        expect(existsSync(path), `${page} includes snippets/${file}`).toBe(true)
        expect(readFileSync(path, 'utf8'), `${file} has #region ${region}`).toContain(
          `// #region ${region}\n`,
        )
        included.add(file!)
      }
    }
    const files = readdirSync(new URL('snippets/', DOCS)).filter((file) => file.endsWith('.ts'))
    expect(files.filter((file) => !included.has(file))).toEqual([])
  })

  it('show API use only through snippets: no ts code block written in a page', () => {
    const inline = pages().filter((page) => /^\s*```ts/m.test(read(page)))
    expect(inline).toEqual([])
  })
})
