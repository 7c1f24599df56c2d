// The worker's Comlink API is the intersection of one handler type per domain
// (as Actual Budget's loot-core `Handlers` is). Combining them checks that no
// two domains name a handler alike: an object spread would let the later one
// silently replace the earlier.
type Handlers = Record<string, (...args: never[]) => unknown>

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (
  x: infer I,
) => void
  ? I
  : never

export function combineHandlers<T extends Handlers[]>(...parts: T): UnionToIntersection<T[number]> {
  const all: Handlers = {}
  for (const part of parts) {
    for (const [name, handler] of Object.entries(part)) {
      if (Object.hasOwn(all, name)) throw new Error(`sync handler defined twice: ${name}`)
      all[name] = handler
    }
  }
  return all as UnionToIntersection<T[number]>
}
