// Message rules both ends apply (the composer counts characters, the API refuses).

/** Characters of one message, after trimming. */
export const MESSAGE_MAX = 2000
/** Messages a page of GET /api/messages.php holds. */
export const MESSAGES_PAGE_SIZE = 50
/** Characters of a report's free text. */
export const REPORT_TEXT_MAX = 2000
/** The live stream's keep-alive comment, so proxies keep an idle stream open. */
export const EVENTS_KEEPALIVE_MS = 15_000
/**
 * How often an open stream checks its session is still live. The client does
 * not poll while the stream is up, so this is what ends it, as often as the
 * spec §9 user poll (60 s) would have noticed.
 */
export const EVENTS_SESSION_CHECK_MS = 60_000

/** Why a member reports another (the report dialog's choices, the API's enum). */
export const REPORT_REASONS = [
  'spam',
  'scam',
  'harassment',
  'inappropriate',
  'underage',
  'fake_profile',
  'other',
] as const
