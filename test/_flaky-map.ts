/** A Map store that fails every call while `failing` is true, as a store that went away. */
export class FlakyMap extends Map {
  failing = true
  /** When set, reads succeed this many more times, then the store fails. */
  readsLeft: number | undefined

  private check(): void {
    if (this.failing) throw new Error('store down: secret-internal-detail')
  }
  override get(key: unknown) {
    if (this.readsLeft !== undefined && this.readsLeft-- <= 0) this.failing = true
    this.check()
    return super.get(key)
  }
  override set(key: unknown, value: unknown) {
    this.check()
    return super.set(key, value)
  }
  override keys() {
    this.check()
    return super.keys()
  }
}
