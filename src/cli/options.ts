/**
 * Options a command does not take are refused (exit 2), never ignored: citty drops them
 * without a word, so `movie-log serve --port 8080` would serve on another port.
 */
import type { ArgsDef, CommandDef, Resolvable } from 'citty'
import { UsageError } from './exit'

// Where a command's settings are not options: said to whoever gives it one.
const HINTS: Record<string, string> = {
  serve: "; the server's settings are environment variables, as in PORT=8080 movie-log serve",
}

/** One command on the way to the one called: its names, its options, the arguments it reads. */
interface Level {
  command: CommandDef
  names: string[]
  types: Map<string, string>
  own: string[]
}

const resolve = async <T>(value: Resolvable<T>): Promise<T> =>
  typeof value === 'function' ? (value as () => T | Promise<T>)() : value

/**
 * The commands from the root to the subcommand `rawArgs` call, found as citty's `runCommand`
 * finds them: at each level, the first argument that is neither an option nor an option's value
 * names the next. An unknown name, or none, ends the walk (citty says what is wrong then).
 */
export async function calledCommands(root: CommandDef, rawArgs: string[]): Promise<Level[]> {
  const levels: Level[] = []
  let command = root
  let args = rawArgs
  const names: string[] = []
  for (;;) {
    const types = optionTypes(await resolve(command.args ?? {}))
    const subCommands = command.subCommands ? await resolve(command.subCommands) : {}
    const at = Object.keys(subCommands).length > 0 ? subCommandIndex(args, types) : -1
    levels.push({ command, names: [...names], types, own: at === -1 ? args : args.slice(0, at) })
    const name = args[at] as string
    const next = at === -1 ? undefined : await subCommandNamed(subCommands, name)
    if (!next) return levels
    command = next
    names.push(name)
    args = args.slice(at + 1)
  }
}

/** Throws a `UsageError` naming the first option in `rawArgs` its command does not define. */
export async function refuseUnknownOptions(root: CommandDef, rawArgs: string[]): Promise<void> {
  for (const { names, types, own } of await calledCommands(root, rawArgs)) {
    const unknown = unknownOption(own, types)
    if (unknown === undefined) continue
    const command = ['movie-log', ...names].join(' ')
    const taken = [...types.keys()].map((name) => (name.length > 1 ? `--${name}` : `-${name}`))
    throw new UsageError(
      `unknown option '${unknown}': ${command} takes ${taken.join(', ') || 'no options'}${HINTS[names.join(' ')] ?? ''}`,
    )
  }
}

function unknownOption(args: string[], types: Map<string, string>): string | undefined {
  for (let at = 0; at < args.length; at++) {
    const arg = args[at] as string
    if (arg === '--') return undefined // the rest are positionals
    if (!arg.startsWith('-') || arg === '-') continue // `-` is standard input
    const flag = arg.split('=', 1)[0] as string
    // `-abc` is three short options, as Node's parseArgs (under citty) reads it.
    const type = flag.startsWith('--')
      ? typeOf(types, flag.slice(2))
      : shortsType(types, flag.slice(1))
    if (type === undefined) return flag
    // Its value, whatever it looks like; but citty drops every `--no-x` before it reads values.
    const next = args[at + 1]
    if (type !== 'boolean' && !arg.includes('=') && !next?.startsWith('--no-')) at++
  }
  return undefined
}

async function subCommandNamed(
  subCommands: Record<string, Resolvable<CommandDef>>,
  name: string,
): Promise<CommandDef | undefined> {
  if (Object.hasOwn(subCommands, name)) return resolve(subCommands[name] as Resolvable<CommandDef>)
  for (const each of Object.values(subCommands)) {
    const command = await resolve(each)
    const meta = command.meta ? await resolve(command.meta) : undefined
    if (meta?.alias && [meta.alias].flat().includes(name)) return command
  }
  return undefined
}

function subCommandIndex(args: string[], types: Map<string, string>): number {
  for (let at = 0; at < args.length; at++) {
    const arg = args[at] as string
    if (arg === '--') return -1
    if (!arg.startsWith('-')) return at
    const type = typeOf(types, arg.replace(/^--?/, ''))
    if (!arg.includes('=') && (type === 'string' || type === 'enum')) at++
  }
  return -1
}

function optionTypes(definitions: ArgsDef): Map<string, string> {
  const types = new Map<string, string>()
  for (const [name, definition] of Object.entries(definitions)) {
    if (definition.type === 'positional') continue
    const aliases = 'alias' in definition ? [definition.alias ?? []].flat() : []
    for (const each of [name, ...aliases]) types.set(each, definition.type ?? 'string')
  }
  return types
}

// As citty reads them: kebab or camel case, and `--no-x` for a boolean `x`.
function typeOf(types: Map<string, string>, name: string): string | undefined {
  const kebab = name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
  const type = types.get(name) ?? types.get(kebab)
  if (type !== undefined || !kebab.startsWith('no-')) return type
  return types.get(kebab.slice(3)) === 'boolean' ? 'boolean' : undefined
}

// Short options in one argument: each a one-letter alias; all but the last take no value.
function shortsType(types: Map<string, string>, letters: string): string | undefined {
  const each = [...letters].map((letter) => types.get(letter))
  if (each.some((type) => type === undefined)) return undefined
  return each.slice(0, -1).every((type) => type === 'boolean') ? each.at(-1) : undefined
}
