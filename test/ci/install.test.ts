import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, expect, inject, it } from 'vitest'
import { describeWith } from '../_services'
import { tempFolders } from '../_temp'

// The install lines of README.md and the docs' Getting started, run as written (movie-log being
// the packed tarball) on the Node running the tests: each resolves without npm flags, to one keyv
// shared by the whole app.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const tempFolder = tempFolders()
let tarball = ''

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

const installLines = [
  ...new Set(
    ['README.md', 'docs/guide/getting-started.md'].flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('npm install movie-log'))
        .map((line) => line.replace(/#.*/, '').trim()),
    ),
  ),
]

/** Resolves `steps` one after another in a fresh app; the versions of keyv it placed. */
function resolve(steps: string[]): string[] {
  const app = tempFolder('consumer-app-')
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }))
  for (const step of steps) {
    const names = step.split(/\s+/).slice(2)
    const args = names.map((name) => (name === 'movie-log' ? tarball : name))
    npm(['install', '--package-lock-only', '--no-audit', '--no-fund', ...args], app)
  }
  const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'))
  return Object.entries(lock.packages as Record<string, { version: string }>)
    .filter(([path]) => path.endsWith('node_modules/keyv'))
    .map(([path, { version }]) => `${path} ${version}`)
}

// Resolving against the registry takes a minute: a local `npm test` stays quick, CI runs it.
describeWith('CI', `installing next to the keyv adapters (Node ${process.versions.node})`, () => {
  beforeAll(() => {
    // Packed once for the run, by test/_global-setup.ts.
    tarball = inject('tarball')
  })

  it('finds the install lines in the README and the docs', () => {
    expect(installLines).toEqual([
      'npm install movie-log',
      'npm install movie-log sqlite3',
      'npm install movie-log pg',
      'npm install movie-log @keyv/redis',
      'npm install movie-log h3 listhen',
    ])
  })

  it.each([
    ...installLines.map((line) => [line]),
    ['npm install movie-log @keyv/sqlite'],
    ['npm install movie-log @keyv/redis @keyv/postgres'],
    // keyv named too: on Node 22+ npm picks keyv 6, which movie-log's range shares.
    ['npm install movie-log keyv'],
    // An adapter added later, next to the keyv movie-log brought.
    ['npm install movie-log', 'npm install @keyv/redis'],
  ])(
    'resolves %s without flags, to one keyv',
    (...steps: string[]) => {
      const placed = resolve(steps)
      expect(placed).toHaveLength(1)
      expect(placed[0]).toMatch(/^node_modules\/keyv (5\.\d+|6\.\d+)\.\d+/)
    },
    120_000,
  )
})
