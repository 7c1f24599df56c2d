// Timing rules of the sync worker, named next to the spec rule they implement.

/** Spec §9: user, chats and likes are polled every 60 s ... */
export const POLL_MS = 60_000
/** ... or every 300 s when a push subscription delivers news instead. */
export const POLL_WITH_PUSH_MS = 300_000
/** Spec §9: chat and likes polling starts 1 s after login. */
export const CHATS_START_DELAY_MS = 1_000
