import { existsSync, readdirSync, readFileSync } from 'node:fs'
import * as movieLog from 'movie-log'
import { describe, expect, it } from 'vitest'

// The manual in docs/: its included snippets against the files in docs/snippets/ (which `npm run
// docs:check` compiles against dist/). Its API tables are checked in exports.test.ts, beside the
// exports they list (reading them takes the TypeScript compiler a second or two).
const DOCS = new URL('../docs/', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, DOCS), 'utf8')

/** Every markdown page of the site, as a path below docs/. */
function pages(): string[] {
  return readdirSync(DOCS, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md') && !path.startsWith('.vitepress'))
    .sort()
}

describe('the docs', () => {
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

  // Issue 55: the table had no InvalidOwnerError, which logs.of and the HTTP owner function throw.
  it('list every error class movie-log exports in the errors reference', () => {
    const table = read('reference/errors.md')
    const classes = Object.entries(movieLog).filter(
      ([name, value]) =>
        typeof value === 'function' &&
        value.prototype instanceof movieLog.MovieLogError &&
        name.endsWith('Error'),
    )
    expect(classes.length).toBeGreaterThan(10)
    const missing = classes.filter(([name]) => !table.includes(`| \`${name}\` |`))
    expect(missing.map(([name]) => name)).toEqual([])
  })
})
