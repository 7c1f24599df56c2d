// Apart from EntryWarning.tsx: the root decides with it on every page, the
// warning itself loads only where it shows.

/** Spec §1 niches: 1 is the general site; every other niche is adult content. */
export const needsEntryWarning = (niche: number | undefined) => niche !== undefined && niche !== 1
