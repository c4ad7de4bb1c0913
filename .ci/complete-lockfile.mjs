// Adds lockfile entries for optional, platform-specific packages (the macOS, Windows and musl
// builds of Biome's and Rollup's binaries) that the registry reachable here does not serve, so
// npm cannot write them. Without them `npm ci` calls the lockfile out of sync. Each entry says
// its os/cpu, so npm skips it on other machines as it would a fetched one. Idempotent.
import { readFileSync, writeFileSync } from 'node:fs'

const OS = [
  'darwin',
  'linux',
  'win32',
  'freebsd',
  'openbsd',
  'netbsd',
  'android',
  'sunos',
  'aix',
  'openharmony',
]
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 'riscv64', 's390x', 'loong64', 'mips64el']

const path = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(path, 'utf8'))
const added = []

for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ''}node_modules/${name}`
    if (lock.packages[nested] || lock.packages[`node_modules/${name}`]) continue
    if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) continue // only exact versions can be written down
    const tokens = name.split('/').pop().split('-')
    const os = tokens.filter((token) => OS.includes(token))
    const cpu = tokens.filter((token) => CPU.includes(token))
    if (os.length !== 1 || cpu.length !== 1) continue // not a platform build we can describe
    const platform = { os, cpu }
    if (tokens.includes('musl') || tokens.includes('gnu'))
      platform.libc = [tokens.includes('musl') ? 'musl' : 'glibc']
    lock.packages[`node_modules/${name}`] = {
      version: spec,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    }
    added.push(`${name}@${spec}`)
  }
}

if (added.length > 0) {
  lock.packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) =>
      a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1,
    ),
  )
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
}
console.log(
  `complete-lockfile: ${added.length} platform entr${added.length === 1 ? 'y' : 'ies'} added`,
)
