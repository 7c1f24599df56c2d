// Moderation's fixed lists and limits (api/contract/operator/moderation.ts), zod-free
// for the console's pages.

/** The site's rules a decision names (the statement of reasons quotes it). */
export const MODERATION_RULES = [
  'harassment',
  'spam_scam',
  'fake_profile',
  'explicit_content',
  'underage',
  'other',
] as const
export type ModerationRule = (typeof MODERATION_RULES)[number]

/** What a moderator can do with a report or complaint. */
export const MODERATION_ACTIONS = [
  'dismiss',
  'warn',
  'suspend',
  'ban',
  'remove_photo',
  'remove_text',
  'mark_fictional',
  'unmark_fictional',
] as const
export type ModerationAction = (typeof MODERATION_ACTIONS)[number]

/** The actions that restrict a member: each sends a statement of reasons (DSA Art. 17) and can be appealed. */
export const RESTRICTING_ACTIONS = [
  'warn',
  'suspend',
  'ban',
  'remove_photo',
  'remove_text',
] as const
export type RestrictingAction = (typeof RESTRICTING_ACTIONS)[number]

/** What an appeal's moderator can do. */
export const APPEAL_ACTIONS = ['uphold', 'lift'] as const

/**
 * What a moderator can do with a photo held by pre-moderation: approve (others
 * then see it) or reject (it is removed, with a statement of reasons).
 */
export const PHOTO_ACTIONS = ['approve', 'reject'] as const

/**
 * What waits in the queue. `scam`: a conversation's first message held by
 * the scam signals (api/chats/scam-cases.ts), its id the conversation's;
 * dismiss releases it, a restricting action refuses it (refunded) and
 * sanctions its sender.
 */
/** What a moderator can do with a held first message: dismiss releases it, the others refuse it. */
export const SCAM_ACTIONS = ['dismiss', 'warn', 'suspend', 'ban'] as const

/**
 * `verification`: a member's posed selfie (photo verification,
 * api/verification/), approved or rejected (PHOTO_ACTIONS) with a reason.
 */
/**
 * `profile_text`: a member's new name, profile text or notes held by the scam
 * signals (api/moderation/profile-texts.ts), approved (published) or
 * rejected (PHOTO_ACTIONS).
 */
export const QUEUE_ITEM_TYPES = [
  'report',
  'complaint',
  'appeal',
  'photo',
  'scam',
  'verification',
  'profile_text',
] as const
export type QueueItemType = (typeof QUEUE_ITEM_TYPES)[number]

/** An item is overdue after 24 hours; the queue shows those first. */
export const QUEUE_OVERDUE_S = 24 * 3600
/** Messages shown before and after a reported message. */
export const MESSAGE_CONTEXT = 5
/** The longest suspension in days (longer: a ban). */
export const SUSPEND_MAX_DAYS = 365
