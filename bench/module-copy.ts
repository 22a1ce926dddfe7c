/**
 * A copy of a module of its own per key: importing the module's URL with the key in its
 * query string makes Node load and compile it afresh, so the functions of each copy gather
 * their own type feedback. The benchmarks time each implementation through its own copy
 * of their drivers, so that every call site sees one implementation and can be inlined,
 * as in a program that uses only that one.
 */
const copies = new Map<string, Promise<unknown>>()

/** The copy of the module at `url` for `key`, loaded once. */
export const moduleCopy = <M>(url: URL, key: string): Promise<M> => {
  const href = `${url.href}?copy=${encodeURIComponent(key)}`
  let copy = copies.get(href)
  if (copy === undefined) {
    copy = import(href)
    copies.set(href, copy)
  }
  return copy as Promise<M>
}
