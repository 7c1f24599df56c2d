// A member looking at the site hears news through the live stream, not a
// push or a mail (docs/push.md): a page of theirs that is visible tells the
// server so, and repeats it while it stays visible.

/**
 * How often a visible page repeats its report. Each report is a request and
 * its 204 (about 0.9 KB with their headers), the largest part of what an
 * idle member's tab costs (bench/idle-traffic.ts, goal ≤ 0.5 KB a minute):
 * every 3 minutes it is 0.3 KB a minute.
 */
export const VISIBLE_PING_MS = 180_000

/**
 * How long the server holds a report: a repeat and a minute of slack for a
 * slow network. A page that vanished without its hidden report (a crash, a
 * lost network) silences pushes and mails for at most this long.
 */
export const VISIBLE_HOLD_MS = VISIBLE_PING_MS + 60_000
