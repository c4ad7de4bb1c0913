/**
 * A plug-in point: the parts movie-log ships of one kind (store openers, scrobble sources,
 * import formats) and those an app adds, found by name. It is a plain list kept by the package:
 * nothing global of the app's process is read or patched (a DI container such as tsyringe
 * cannot load without a `Reflect` metadata polyfill installed on the global `Reflect`).
 */
export class PluginPoint<T> {
  readonly #builtIns: readonly T[]
  readonly #added: T[] = []
  readonly #namesOf: (plugin: T) => readonly string[]
  readonly #methods: readonly (keyof T & string)[]

  /**
   * @param kind What a plug-in of this point is, for errors: `'scrobble source'`.
   * @param namesOf The names a plug-in answers to, matched exactly.
   * @param methods The functions a plug-in must have.
   * @param builtIns What movie-log ships, in the order it lists them.
   *
   * @example
   * ```ts
   * const sources = new PluginPoint('scrobble source', (s) => [s.name], ['read'], [plex, emby])
   * ```
   */
  constructor(
    readonly kind: string,
    namesOf: (plugin: T) => readonly string[],
    methods: readonly (keyof T & string)[],
    builtIns: readonly T[],
  ) {
    this.#namesOf = namesOf
    this.#methods = methods
    this.#builtIns = this.checked(builtIns, 'movie-log')
  }

  /**
   * `plugins` as they are, once each is seen to have its names and functions; else a
   * `TypeError` that names the plug-in (`by`) and what is wrong.
   *
   * @example
   * ```ts
   * for (const source of sources.checked(plugin.scrobbleSources, plugin.name)) sources.register(source)
   * ```
   */
  checked(plugins: readonly T[], by: string): readonly T[] {
    for (const plugin of plugins) {
      const problem = this.#problemOf(plugin)
      if (problem) throw new TypeError(`Plug-in '${by}': ${problem}`)
    }
    return plugins
  }

  /**
   * Adds a plug-in; one added later answers before earlier ones and before what ships, so an app
   * can replace a built-in one under its name. Returns what takes it out again.
   *
   * @example
   * ```ts
   * const remove = sources.register({ name: 'kodi', read: readKodi })
   * ```
   */
  register(plugin: T): () => void {
    this.checked([plugin], 'app')
    this.#added.unshift(plugin)
    return () => {
      const at = this.#added.indexOf(plugin)
      if (at !== -1) this.#added.splice(at, 1)
    }
  }

  /**
   * The plug-in that answers to `name`, or `undefined`.
   *
   * @example
   * ```ts
   * sources.find('plex')?.read(payload, Date.now())
   * ```
   */
  find(name: string): T | undefined {
    return this.all().find((plugin) => this.#namesOf(plugin).includes(name))
  }

  /**
   * Every plug-in, the ones added first (latest first), then the built-in ones.
   *
   * @example
   * ```ts
   * const names = sources.all().map((source) => source.name)
   * ```
   */
  all(): T[] {
    return [...this.#added, ...this.#builtIns]
  }

  /**
   * Every name answered to, each once, in the order `find` tries them.
   *
   * @example
   * ```ts
   * sources.names() // ['kodi', 'plex', 'emby']
   * ```
   */
  names(): string[] {
    return [...new Set(this.all().flatMap((plugin) => this.#namesOf(plugin)))]
  }

  // A name is a URL scheme or a path segment: refused at registration rather than never found.
  #problemOf(plugin: T): string | undefined {
    if (typeof plugin !== 'object' || plugin === null) return `a ${this.kind} must be an object.`
    const names = this.#namesOf(plugin)
    if (!Array.isArray(names) || names.length === 0) return `a ${this.kind} needs a name.`
    const bad = names.find((name) => typeof name !== 'string' || !NAME.test(name))
    if (bad !== undefined) {
      return `a ${this.kind}'s name must be letters, digits, '+', '.' or '-', starting with a letter: ${JSON.stringify(bad)}.`
    }
    const missing = this.#methods.find((method) => typeof plugin[method] !== 'function')
    if (missing) return `the ${this.kind} '${names[0]}' has no function '${missing}'.`
    return undefined
  }
}

const NAME = /^[a-z][a-z0-9+.-]*$/i
