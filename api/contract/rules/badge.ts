// Spec §4 install badge: the one rule of what the number on the app's icon
// counts. The worker applies it to its synced lists (sync/session/badge.ts),
// the server to the same counts read from the database for a push message
// (api/badge.ts badgeOf): both sides call this.

/**
 * Unread messages plus new likes plus new visits to the member's profile
 * (docs/live.md); a count below zero (a stale decrement) counts as none.
 */
export const badgeCount = (unreadMessages: number, newLikes: number, newVisits = 0): number =>
  Math.max(0, unreadMessages) + Math.max(0, newLikes) + Math.max(0, newVisits)
