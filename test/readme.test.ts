import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// README.md is the front door (STYLE.md habit 15): short, the set-up commands first, the manual
// in docs/. Its links, and CONTRIBUTING.md's, must reach files of the repository.
const ROOT = new URL('../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8')
const README_MAX_LINES = 150

/** The relative link targets of a markdown text, without their #fragment. */
function relativeLinks(markdown: string): string[] {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '')
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.replace(/#.*/, ''))
}

describe('README.md', () => {
  const readme = read('README.md')

  it(`has at most ${README_MAX_LINES} lines`, () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(README_MAX_LINES)
  })

  it('starts with the set-up of a fresh clone: npm install, then npm start and npm test', () => {
    const commands = /^```sh\n([\s\S]*?)^```/m
      .exec(readme)?.[1]
      ?.split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/#.*/, '').trim())
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('\n## '))
    expect(commands?.[0]).toBe('npm install')
    expect(commands?.slice(1).sort()).toEqual(['npm start', 'npm test'])
  })

  it('shows the embed of docs/snippets/readme-embed.ts, which docs:check compiles', () => {
    const snippet = read('docs/snippets/readme-embed.ts')
    const region = /\/\/ #region snippet\n([\s\S]*?)\/\/ #endregion snippet/.exec(snippet)?.[1]
    const block = /^```ts\n([\s\S]*?)^```/m.exec(readme)?.[1]
    expect(region).toBeTruthy()
    expect(block).toBe(region)
  })
})

describe.each(['README.md', 'CONTRIBUTING.md'])('%s', (file) => {
  it('links only to files that exist', () => {
    const links = relativeLinks(read(file))
    expect(links.length).toBeGreaterThan(0)
    expect(links.filter((target) => !existsSync(new URL(target, ROOT)))).toEqual([])
  })
})
