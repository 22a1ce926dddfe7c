/**
 * A plainly correct model of the priority queue: a list of entries kept sorted by key
 * and, within a key, by when each was added. Every operation is a line or two of
 * array code.
 */
export interface Entry<H> {
  readonly handle: H
  key: number
  seq: number
}

export class QueueModel<H> {
  minAllowedKey = 0
  entries: Array<Entry<H>> = []
  private seq = 0

  get length(): number {
    return this.entries.length
  }

  private insert(entry: Entry<H>): void {
    const at = this.entries.findIndex((e) => e.key > entry.key)
    this.entries.splice(at < 0 ? this.entries.length : at, 0, entry)
  }

  add(handle: H, key: number): void {
    this.insert({ handle, key, seq: this.seq++ })
  }

  find(handle: H): Entry<H> | undefined {
    return this.entries.find((e) => e.handle === handle)
  }

  remove(handle: H): void {
    this.entries = this.entries.filter((e) => e.handle !== handle)
  }

  change(handle: H, key: number): void {
    this.remove(handle)
    this.add(handle, key)
  }

  min(): Entry<H> | undefined {
    return this.entries[0]
  }

  /**
   * Removes the entries below `key` one at a time, least first, calling `handler` on
   * each, which may change the model; what it removes or changes does not come out.
   */
  increaseMinAllowedKey(key: number, handler: (e: Entry<H>) => void): void {
    if (key <= this.minAllowedKey) return
    this.minAllowedKey = key
    for (;;) {
      const first = this.entries[0]
      if (first === undefined || first.key >= key) return
      this.entries.shift()
      handler(first)
    }
  }
}
