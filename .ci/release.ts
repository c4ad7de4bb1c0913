/**
 * What `npm run release` does: build, check the package (publint `--strict` and
 * arethetypeswrong on the packed tarball, `npm run check:package`), then publish with
 * `changeset publish` (on CI, from .github/workflows/release.yml, with npm trusted publishing
 * and provenance).
 *
 *   npm run release -- --dry-run    # everything but the publish: says what would be published
 *
 * `--dry-run` packs without publishing and prints the name, version, files and size, and
 * whether that version is on npm already (a look-up that may fail offline: it says so, and the
 * dry run still succeeds). Nothing is written to the registry.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const dryRun = process.argv.includes('--dry-run')

/** Runs a command in the repository, its output shown; a failure ends the release. */
function step(command: string, args: string[]): void {
  console.log(`\n> ${command} ${args.join(' ')}`)
  const { status, signal } = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' })
  if (status !== 0) {
    console.error(`release: ${command} ${args.join(' ')} failed (${signal ?? `exit ${status}`})`)
    process.exit(status || 1)
  }
}

interface Packed {
  name: string
  version: string
  size: number
  unpackedSize: number
  files: { path: string; size: number }[]
}

/** Whether `name@version` is on npm: `true`, `false`, or why the registry could not say. */
function published(name: string, version: string): boolean | string {
  try {
    const out = execFileSync(
      'npm',
      [
        'view',
        `${name}@${version}`,
        'version',
        '--json',
        '--fetch-timeout=10000',
        '--fetch-retries=0',
      ],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 },
    )
    // An unknown version of a known package prints nothing; a known one prints "x.y.z".
    return out.trim() !== '' && JSON.parse(out) === version
  } catch (error) {
    const output = `${(error as { stdout?: string }).stdout ?? ''}`
    const code = /"code":\s*"([^"]+)"/.exec(output)?.[1]
    if (code === 'E404') return false
    return code ?? (error as Error).message.split('\n')[0] ?? 'unknown error'
  }
}

step('npm', ['run', 'check:package'])

if (!dryRun) {
  step('npx', ['changeset', 'publish'])
  process.exit(0)
}

const [packed] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }),
) as [Packed]
const pending = readdirSync(join(ROOT, '.changeset')).filter(
  (file) => file.endsWith('.md') && file !== 'README.md',
)
const onNpm = published(packed.name, packed.version)
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`

console.log(`\nrelease --dry-run: nothing was published.
package:  ${packed.name}@${packed.version}${
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).private ? ' (private!)' : ''
}
tarball:  ${kB(packed.size)} (${kB(packed.unpackedSize)} unpacked), ${packed.files.length} files
${packed.files.map((file) => `  ${file.path.padEnd(40)} ${kB(file.size)}`).join('\n')}
on npm:   ${
  onNpm === true
    ? `${packed.version} is published already: changeset publish would skip it`
    : onNpm === false
      ? `${packed.version} is not published yet: changeset publish would publish it`
      : `could not tell (${onNpm}: offline, or the registry did not answer)`
}
pending:  ${
  pending.length === 0
    ? 'no changesets'
    : `${pending.length} changesets not yet versioned (npm run version, or the "Version packages" pull request, turns them into the next version)`
}`)
