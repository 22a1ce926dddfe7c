/**
 * Doubly linked circular lists threaded through two `Int32Array`s: the lists of timers of
 * Schemes 2, 4, 5 and 6, with no object per timer.
 *
 * Representation. Rows `[0, capacity)` are timers, row = timer id; rows
 * `[capacity, capacity + lists)` are the lists' sentinel heads. Invariants:
 *
 * - every list is a cycle through its head: `prev[next[r]] === r` for every linked row;
 * - a timer row on no list has `prev === UNLINKED`, so "is this timer outstanding?" is
 *   one load;
 * - an empty list is its head linked to itself.
 *
 * The sentinel is why insert and unlink have no branches: every linked row has a
 * predecessor and a successor. Double links are why unlinking a timer, given its id, is
 * O(1) (the paper's STOP_TIMER in sections 3.2 and 5).
 */

/** `prev` of a timer row that is on no list. */
export const UNLINKED = -1

export class Links {
  readonly next: Int32Array
  readonly prev: Int32Array
  /** The row of list 0's head. */
  readonly firstHead: number

  constructor(capacity: number, lists: number) {
    const rows = capacity + lists
    this.next = new Int32Array(rows)
    this.prev = new Int32Array(rows).fill(UNLINKED, 0, capacity)
    this.firstHead = capacity
    for (let h = capacity; h < rows; h++) {
      this.next[h] = h
      this.prev[h] = h
    }
  }
}

/** The head row of list `list`. */
export const headOf = (links: Links, list: number): number => links.firstHead + list

export const isLinked = (links: Links, row: number): boolean => links.prev[row] !== UNLINKED

export const isEmpty = (links: Links, head: number): boolean => links.next[head] === head

/** The first row of the list at `head`; `head` itself if the list is empty. */
export const first = (links: Links, head: number): number => links.next[head]!

/** Links `row` just before `at` (before the head: at the end of the list). */
export const insertBefore = (links: Links, at: number, row: number): void => {
  const before = links.prev[at]!
  links.next[before] = row
  links.prev[row] = before
  links.next[row] = at
  links.prev[at] = row
}

/** Takes a linked `row` off its list. */
export const unlink = (links: Links, row: number): void => {
  const before = links.prev[row]!
  const after = links.next[row]!
  links.next[before] = after
  links.prev[after] = before
  links.prev[row] = UNLINKED
}

/**
 * Checks the list at `head` and returns its length, calling `visit` on each row. Throws
 * through `fail` on a broken link or a row that is not a timer.
 */
export const checkList = (
  links: Links,
  head: number,
  fail: (what: string) => never,
  visit: (row: number) => void = () => {},
): number => {
  let length = 0
  for (let row = links.next[head]!; row !== head; row = links.next[row]!) {
    if (row < 0 || row >= links.firstHead) fail(`row ${row} on list ${head} is not a timer`)
    if (links.prev[links.next[row]!] !== row) fail(`links around row ${row}`)
    if (++length > links.firstHead) fail(`list ${head} does not return to its head`)
    visit(row)
  }
  if (links.prev[links.next[head]!] !== head) fail(`links of head ${head}`)
  return length
}

/** Counts the timer rows on some list: with `checkList`, every linked row is accounted for. */
export const countLinked = (links: Links): number => {
  let linked = 0
  for (let row = 0; row < links.firstHead; row++) if (isLinked(links, row)) linked++
  return linked
}

/**
 * Inserts timer `id`, expiring at `at`, into the list at `head` kept in order of
 * `expiry`: after every timer that expires no later, so equal expiries stay in start
 * order. The walk is the O(n) (Scheme 2) or O(n/M) (Scheme 5) of START_TIMER.
 */
export const insertInExpiryOrder = (links: Links, head: number, expiry: Float64Array, at: number, id: number): void => {
  const next = links.next
  let row = next[head]!
  while (row !== head && expiry[row]! <= at) row = next[row]!
  expiry[id] = at
  insertBefore(links, row, id)
}
