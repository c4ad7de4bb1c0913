import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { ENTRIES, exportedNames } from './_exports'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')

/** The names the README's API section lists under each entry's heading. */
function documentedNames(): Record<string, string[]> {
  const api = readme.split(/^## API$/m)[1]?.split(/^## /m)[0] ?? ''
  const documented: Record<string, string[]> = {}
  for (const section of api.split(/^### /m).slice(1)) {
    const entry = /^`([^`]+)`/.exec(section)?.[1] ?? ''
    documented[entry] = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]!).sort()
  }
  return documented
}

it('documents every export of every entry in the README, and nothing that is not exported', () => {
  const documented = documentedNames()
  expect(Object.keys(documented).sort()).toEqual(Object.keys(ENTRIES).sort())
  expect(documented).toEqual(exportedNames())
})
