// Issue 34: the GitHub workflows are valid against GitHub's workflow schema (a misspelt key
// fails here, not on GitHub after a merge), CI runs `.ci/run`, and the release workflow
// publishes through changesets/action with npm trusted publishing and provenance.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { validateWorkflow } from '@action-validator/core'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const FOLDER = join(ROOT, '.github/workflows')
const files = readdirSync(FOLDER).filter((file) => /\.ya?ml$/.test(file))
const read = (file: string) => readFileSync(join(FOLDER, file), 'utf8')

interface Step {
  uses?: string
  run?: string
  with?: Record<string, unknown>
  env?: Record<string, unknown>
}
interface Workflow {
  on: Record<string, unknown>
  permissions?: Record<string, string>
  jobs: Record<string, { 'runs-on': string; env?: Record<string, unknown>; steps: Step[] }>
}
const workflow = (file: string) => parse(read(file)) as Workflow
const steps = (file: string) => Object.values(workflow(file).jobs).flatMap((job) => job.steps)

/** Schema errors as readable lines (the validator nests the branches of each `oneOf`). */
const schemaErrors = (source: string): string[] =>
  validateWorkflow(source).errors.flatMap((error) => [
    `${'path' in error ? error.path : ''} ${error.title}${error.detail ? `: ${error.detail}` : ''}`,
    ...('states' in error ? (error.states ?? []) : []).flatMap((state) =>
      state.errors.map(
        (inner) => `  ${'path' in inner ? inner.path : ''} ${inner.detail ?? inner.title}`,
      ),
    ),
  ])

describe('the workflows in .github/workflows', () => {
  it('are ci.yml and release.yml', () => {
    expect(files.sort()).toEqual(['ci.yml', 'release.yml'])
  })

  it.each(files)('%s is valid against the GitHub workflow schema', (file) => {
    expect(schemaErrors(read(file))).toEqual([])
  })

  it('a misspelt key is caught by the same check', () => {
    const misspelt = read('ci.yml').replace('runs-on:', 'runs_on:')
    expect(schemaErrors(misspelt).join('\n')).toContain("Additional property 'runs_on'")
  })
})

describe('ci.yml', () => {
  it('runs .ci/run on every push and pull request, with CI=true', () => {
    const ci = workflow('ci.yml')
    expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['push', 'pull_request']))
    const [job] = Object.values(ci.jobs)
    expect(job?.['runs-on']).toBe('ubuntu-latest')
    expect(job?.env?.CI).toBe(true)
    expect(steps('ci.yml').some((step) => /\bbash \.ci\/run$/.test(step.run ?? ''))).toBe(true)
  })
})

describe('release.yml', () => {
  const release = workflow('release.yml')
  const changesets = steps('release.yml').find((step) =>
    step.uses?.startsWith('changesets/action@'),
  )

  it('runs on pushes to main with the permissions trusted publishing needs', () => {
    expect(release.on).toEqual({ push: { branches: ['main'] } })
    expect(release.permissions).toEqual({
      contents: 'write',
      'pull-requests': 'write',
      'id-token': 'write',
    })
  })

  it('versions and publishes with changesets/action and the package scripts', () => {
    expect(changesets?.with).toMatchObject({
      version: 'npm run version',
      publish: 'npm run release',
    })
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts
    expect(Object.keys(scripts)).toEqual(expect.arrayContaining(['version', 'release']))
  })

  it('publishes with provenance and no npm token (trusted publishing)', () => {
    expect(changesets?.env?.NPM_CONFIG_PROVENANCE).toBe(true)
    expect(read('release.yml')).not.toMatch(/NPM_TOKEN\s*:|NODE_AUTH_TOKEN/)
    // Provenance comes from the workflow: package.json neither turns it off nor demands it
    // where no CI can attest (a maintainer's `npm publish` on their own machine).
    const { publishConfig } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    expect(publishConfig).not.toHaveProperty('provenance')
  })
})
