/**
 * A clock is an object of functions (so that `const { setTimeout } = clock` works) with a
 * few accessors (`now`, `loopLimit`). V8 builds an object literal that has a getter or a
 * setter in dictionary mode, where every read of a property is a lookup in a hash table
 * that its inline caches do not keep: each `clock.setTimeout` and `clock.next()` paid one
 * (a tenth of a clock's `next`, counted). Built as a literal of data properties, with the
 * accessors defined one by one afterwards, the object stays fast (defining them together
 * with `Object.defineProperties` does not). `Object.keys` lists the accessors last.
 */

/** The accessors of an object of type `T` whose keys are `K`. */
export type Accessors<T, K extends keyof T> = {
  readonly [P in K]: { readonly get: () => T[P]; readonly set?: (value: T[P]) => void }
}

/** `T` without the keys `K` (unlike `Omit`, it keeps the other members of a type with an index signature). */
export type Without<T, K extends keyof T> = { [P in keyof T as P extends K ? never : P]: T[P] }

/** `data` with the accessors defined on it, enumerable and configurable as a literal's. */
export const withAccessors = <T extends object, K extends keyof T>(data: Without<T, K>, accessors: Accessors<T, K>): T => {
  for (const key of Object.keys(accessors) as K[]) {
    Object.defineProperty(data, key, { ...accessors[key], enumerable: true, configurable: true })
  }
  return data as T
}
