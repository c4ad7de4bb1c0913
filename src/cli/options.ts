/**
 * Options a subcommand does not take are refused (exit 2), never ignored: citty drops them
 * without a word, so `movie-log serve --port 8080` would serve on another port.
 */
import type { ArgsDef, CommandDef, Resolvable } from 'citty'
import { UsageError } from './exit'

// What an option looks like to the person who typed one a command does not take.
const HINTS: Record<string, string> = {
  serve: "; the server's settings are environment variables, as in PORT=8080 movie-log serve",
}

const resolve = async <T>(value: Resolvable<T>): Promise<T> =>
  typeof value === 'function' ? (value as () => T | Promise<T>)() : value

/**
 * Throws a `UsageError` naming the first option in `rawArgs` that the subcommand they call does
 * not define. The subcommand is found as citty finds it: the first argument that is no option.
 */
export async function refuseUnknownOptions(root: CommandDef, rawArgs: string[]): Promise<void> {
  let command: CommandDef = root
  let args = rawArgs
  const names: string[] = []
  for (;;) {
    const subCommands = await resolve(command.subCommands ?? {})
    const at = args.findIndex((arg) => !arg.startsWith('-'))
    const name = args[at] as string
    // Not a subcommand: citty says so itself, or it is the command's own positional.
    if (at === -1 || !Object.hasOwn(subCommands, name)) break
    command = await resolve(subCommands[name] as Resolvable<CommandDef>)
    names.push(name)
    args = args.slice(at + 1)
  }
  const types = optionTypes(await resolve(command.args ?? {}))
  for (let at = 0; at < args.length; at++) {
    const arg = args[at] as string
    if (arg === '--') return // the rest are positionals
    if (!arg.startsWith('-') || arg === '-') continue // `-` is standard input
    const flag = arg.split('=', 1)[0] as string
    const type = typeOf(types, flag.replace(/^--?/, ''))
    if (type === undefined) {
      const command = ['movie-log', ...names].join(' ')
      const taken = [...types.keys()].map((name) => `--${name}`).join(', ')
      const hint = HINTS[names.join(' ')] ?? ''
      throw new UsageError(
        `unknown option '${flag}': ${command} takes ${taken || 'no options'}${hint}`,
      )
    }
    if (type !== 'boolean' && !arg.includes('=')) at++ // its value, whatever it looks like
  }
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
