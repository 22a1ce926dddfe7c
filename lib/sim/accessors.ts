/**
 * A clock is an object of functions (so that `const { setTimeout } = clock` works) with a
 * few accessors (`now`, `loopLimit`). V8 builds an object literal that has a getter or a
 * setter in dictionary mode, where every read of a property is a lookup in a hash table
 * that its inline caches do not keep: each `clock.setTimeout` and `clock.next()` paid one
 * (a tenth of a clock's `next`, counted). Built as a literal of data properties, with the
 * accessors defined one by one afterwards, the object stays fast (defining them together
 * with `Object.defineProperties` does not). `Object.keys` lists the accessors last.
 *
 * That holds for the first object only if each has accessors of its own: V8 shares the
 * shape of objects built the same way only while their accessors are the same functions,
 * and turns the second clock with other getters into a dictionary. So the accessors are
 * the same functions for every object: each reads the object's state from a
 * non-enumerable data property (`stateKey`) and passes it to a function of the module
 * that made the object, which must not be a closure made per object (else the objects
 * are dictionaries again, correct but slow).
 */

/** The accessors of an object of type `T` whose keys are `K`, over a state `S`. */
export type Accessors<T, K extends keyof T, S> = {
  readonly [P in K]: { readonly get: (state: S) => T[P]; readonly set?: (state: S, value: T[P]) => void }
}

/** `T` without the keys `K` (unlike `Omit`, it keeps the other members of a type with an index signature). */
export type Without<T, K extends keyof T> = { [P in keyof T as P extends K ? never : P]: T[P] }

const stateKey = Symbol('state')
/** The accessors an object was made with: which module's object it is. */
const madeWithKey = Symbol('accessors')

type Getter = (state: never) => unknown
type Setter = (state: never, value: never) => void

// One accessor function for each function of state, whatever object it is defined on.
const getters = new WeakMap<Getter, () => unknown>()
const setters = new WeakMap<Setter, (value: unknown) => void>()

const getterOf = (get: Getter): (() => unknown) => {
  let shared = getters.get(get)
  if (shared === undefined) {
    shared = function (this: { [stateKey]: never }): unknown {
      return get(this[stateKey])
    }
    getters.set(get, shared)
  }
  return shared
}

const setterOf = (set: Setter): ((value: unknown) => void) => {
  let shared = setters.get(set)
  if (shared === undefined) {
    shared = function (this: { [stateKey]: never }, value: unknown): void {
      set(this[stateKey], value as never)
    }
    setters.set(set, shared)
  }
  return shared
}

/** `data` with the accessors over `state` defined on it, enumerable and configurable as a literal's. */
export const withAccessors = <T extends object, K extends keyof T, S>(data: Without<T, K>, state: S, accessors: Accessors<T, K, S>): T => {
  Object.defineProperty(data, stateKey, { value: state })
  Object.defineProperty(data, madeWithKey, { value: accessors })
  for (const key of Object.keys(accessors) as K[]) {
    const { get, set } = accessors[key]
    const shared = { get: getterOf(get as Getter), enumerable: true, configurable: true }
    Object.defineProperty(data, key, set === undefined ? shared : { ...shared, set: setterOf(set as Setter) })
  }
  return data as T
}

/**
 * The state an object made by {@link withAccessors} reads its accessors from; undefined
 * for any other object, and, given `accessors`, for one made with others (another
 * module's). Constant time. The state is a property of the object, not an entry of a
 * module-wide WeakMap: V8's scavenges keep a WeakMap's young keys alive, with all they
 * reach, until a full collection, so objects made one per test or per property run (clocks)
 * were all copied and promoted.
 *
 * @example
 * const f = stateOf<{ core?: unknown }>(clock) // a fake-timers clock's state
 * const c = stateOf<State>(clock, clockAccessors) // undefined unless this module made it
 */
export const stateOf = <S>(data: object, accessors?: object): S | undefined =>
  accessors === undefined || (data as { [madeWithKey]?: object })[madeWithKey] === accessors ? (data as { [stateKey]?: S })[stateKey] : undefined

/**
 * `holder[key] = value`, for a function made per clock (or per install, per run) put on an
 * object: the same [[Set]], through `Reflect.set` rather than an assignment. V8's inline
 * cache at an assignment that stores a function keeps the functions it stored alive through
 * young-generation collections, with all they reach, until a full collection: a clock's
 * closures reach the clock, so every clock made since the last full collection was copied
 * and promoted (measured: a loop of `h = {}; h.f = () => big` keeps every `big`;
 * `Reflect.set(h, 'f', () => big)` none). Objects that are not functions are unaffected.
 * Where [[Set]] fails (a read-only property), the assignment runs to throw its own error.
 *
 * @example
 * put(clock, 'uninstall', () => restore()) // as clock.uninstall = () => restore()
 */
export const put = (holder: object, key: PropertyKey, value: unknown): void => {
  if (!Reflect.set(holder, key, value)) (holder as Record<PropertyKey, unknown>)[key] = value
}
