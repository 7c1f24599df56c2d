// A small seedable PRNG so the demo data is the same on every run (apart from
// picture file names, which are random like real uploads).

export type RandomSource = () => number

/** mulberry32: 32-bit state, fast, good enough for demo data (not for secrets). */
export function mulberry32(seed: number): RandomSource {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export class Rng {
  constructor(readonly next: RandomSource) {}

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)]
    if (item === undefined) throw new Error('pick from an empty list')
    return item
  }

  /** A pick where items[i] has weight weights[i]. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((s, w) => s + w, 0)
    let r = this.next() * total
    for (let i = 0; i < items.length; i++) {
      r -= weights[i] ?? 0
      if (r < 0) return items[i] as T
    }
    return this.pick(items)
  }

  /** n distinct items (all of them when n >= length), in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = [...items]
    const count = Math.min(n, copy.length)
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i))
      const tmp = copy[i] as T
      copy[i] = copy[j] as T
      copy[j] = tmp
    }
    return copy.slice(0, count)
  }
}
