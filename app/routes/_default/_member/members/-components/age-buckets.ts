/** Spec §9 age filter buckets. */
export const AGE_BUCKETS = {
  all: [18, 100],
  upto25: [18, 25],
  '26_35': [26, 35],
  '36_45': [36, 45],
  '46_55': [46, 55],
  '56_65': [56, 65],
  '65plus': [65, 100],
} as const satisfies Record<string, readonly [number, number]>

export type AgeBucket = keyof typeof AGE_BUCKETS

export const isAgeBucket = (v: unknown): v is AgeBucket => typeof v === 'string' && v in AGE_BUCKETS

/** The bucket whose range equals [min, max], for showing a saved search. */
export const bucketOf = (min: number, max: number): AgeBucket =>
  (Object.keys(AGE_BUCKETS) as AgeBucket[]).find(
    (b) => AGE_BUCKETS[b][0] === min && AGE_BUCKETS[b][1] === max,
  ) ?? 'all'
