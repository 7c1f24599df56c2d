// Console endpoints of the moderation part (see api/contract/operator/staff.ts for
// the rules every console endpoint follows): one queue of member reports,
// public complaints and appeals, the decision on each item (audited, with a
// statement of reasons to the member and the decision to the reporter), and
// the DSA transparency figures.
import { z } from 'zod'
import { Id } from '../common.ts'
import { VOICE_TYPES } from '../messages.ts'

import {
  APPEAL_ACTIONS,
  MODERATION_ACTIONS,
  MODERATION_RULES,
  PHOTO_ACTIONS,
  QUEUE_ITEM_TYPES,
  RESTRICTING_ACTIONS,
  SUSPEND_MAX_DAYS,
} from '../rules/moderation.ts'
import { HEAD_TURNS, VERIFICATION_POSES } from '../rules/verification.ts'

export * from '../rules/moderation.ts'

export const QueueItem = z.object({
  type: z.enum(QUEUE_ITEM_TYPES),
  id: z.number().int(),
  created_at: z.string(),
  /** Older than QUEUE_OVERDUE_S. */
  overdue: z.boolean(),
  /**
   * The report's reason, the complaint's subject, the appealed sanction's
   * kind; `photo` for a photo held for review, `same_photo:12` for one that
   * is the same photo as one of member 12's, `same_face:12` for one whose
   * face is the one kept for member 12 (a consenting verified member).
   */
  summary: z.string(),
  /** The member it concerns, when known. */
  member: z.number().int().nullable(),
})
export type QueueItem = z.infer<typeof QueueItem>
export const QueueResponse = z.object({ items: z.array(QueueItem) })
export type QueueResponse = z.infer<typeof QueueResponse>

export const QueueItemQuery = z.object({ type: z.enum(QUEUE_ITEM_TYPES), id: Id })

export const ModeratedProfile = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  city: z.string().nullable(),
  country: z.string(),
  personal: z.string().nullable(),
  fictional: z.boolean(),
  /** Thumbnail URLs; the main photo first. Pending ones (pre-moderation) are marked. */
  photos: z.array(
    z.object({ id: z.number().int(), url: z.string(), main: z.boolean(), pending: z.boolean() }),
  ),
  /** Live sanctions (suspension, ban). */
  sanctions: z.array(
    z.object({ id: z.number().int(), kind: z.string(), ends_at: z.string().nullable() }),
  ),
})
export type ModeratedProfile = z.infer<typeof ModeratedProfile>

export const ContextMessage = z.object({
  id: z.number().int(),
  sender: z.number().int(),
  body: z.string(),
  created_at: z.string(),
  /** The reported message. */
  reported: z.boolean(),
  /**
   * A photo message's photo as a `data:` URL for the moderator only (chat
   * photos are never served to anyone but the chat's two members); null
   * when the store has it no more. Absent on a text message.
   */
  photo: z.string().nullable().optional(),
  /**
   * A voice message's recording for the moderator only, as a `data:` URL an
   * audio element plays (recordings are never served to anyone but the
   * chat's two members), with its type and length; `url` null when the
   * store has it no more. Absent on any other message.
   */
  voice: z
    .object({
      url: z.string().nullable(),
      type: z.enum(VOICE_TYPES),
      duration_ms: z.number().int(),
    })
    .optional(),
})
export type ContextMessage = z.infer<typeof ContextMessage>

export const SanctionView = z.object({
  id: z.number().int(),
  member: z.number().int(),
  kind: z.enum(RESTRICTING_ACTIONS),
  rule: z.enum(MODERATION_RULES),
  reason: z.string(),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  lifted_at: z.string().nullable(),
  /** The moderator who decided (an appeal goes to another one). */
  staff: z.number().int(),
})
export type SanctionView = z.infer<typeof SanctionView>

export const QueueItemDetail = z.object({
  item: QueueItem,
  /** Open, or the decision taken. */
  decided_at: z.string().nullable(),
  decision: z.string().nullable(),
  /** What the reporter or complainant wrote, or the appeal's text. */
  text: z.string(),
  /** The report's reporter (member id) or the complaint's sender. */
  from: z.object({ member: z.number().int().nullable(), name: z.string().nullable() }),
  /** The complaint's URL. */
  url: z.string().nullable(),
  profile: ModeratedProfile.nullable(),
  /** A reported message with the messages around it, oldest first. */
  messages: z.array(ContextMessage),
  /** The sanction an appeal is about. */
  sanction: SanctionView.nullable(),
  /**
   * A photo held for review: the picture itself (full size) and its
   * thumbnail; `match`: the same photo on another account, found at upload
   * (the other picture's thumbnail, null once it is gone; whether that
   * account is banned now).
   */
  photo: z
    .object({
      id: z.number().int(),
      url: z.string(),
      thumb_url: z.string(),
      match: z
        .object({
          member: z.number().int(),
          photo: z.number().int().nullable(),
          thumb_url: z.string().nullable(),
          banned: z.boolean(),
        })
        .nullable(),
      /**
       * The face in it is the one kept for another account (a consenting
       * verified member), found after upload: that account, how alike
       * (0..1), whether it is banned now.
       */
      face_match: z
        .object({
          member: z.number().int(),
          similarity: z.number(),
          banned: z.boolean(),
        })
        .nullable(),
    })
    .nullable(),
  /**
   * A verification selfie: the pose asked for and the selfie as a data: URL
   * (private: never under /media), null once decided (the file is deleted).
   */
  verification: z
    .object({
      pose: z.enum(VERIFICATION_POSES),
      /** The head turn asked with the pose. */
      turn: z.enum(HEAD_TURNS),
      selfie: z.string().nullable(),
      /**
       * The machine's face match (api/verification/face-match.ts); null when
       * it did not run (no consent, face_match off, or not yet).
       */
      face: z
        .object({
          /** Faces found in the selfie (one is wanted). */
          faces: z.number().int(),
          /** The head was turned the way asked. */
          pose_ok: z.boolean(),
          /** The best similarity (0..1) to the member's approved photos; null: none to compare. */
          similarity: z.number().nullable(),
          /** Approved photos with one face that were compared. */
          photos: z.number().int(),
          /** The similarity at which `face_match = auto` approves. */
          threshold: z.number(),
          /** Approved by the machine. */
          auto: z.boolean(),
          /** Another account with the same face (its member id and similarity); null: none. */
          same_as: z
            .object({ member: z.number().int(), similarity: z.number(), banned: z.boolean() })
            .nullable(),
        })
        .nullable(),
    })
    .nullable(),
})
export type QueueItemDetail = z.infer<typeof QueueItemDetail>

const reason = z.string().trim().min(1).max(2000)

export const DecideRequest = z
  .object({
    type: z.enum(QUEUE_ITEM_TYPES),
    id: Id,
    action: z.enum([...MODERATION_ACTIONS, ...APPEAL_ACTIONS, ...PHOTO_ACTIONS]),
    rule: z.enum(MODERATION_RULES).optional(),
    reason,
    /** Suspension length. */
    days: z.number().int().min(1).max(SUSPEND_MAX_DAYS).optional(),
    /** The photo to remove. */
    photo: Id.optional(),
    /** The member a complaint is about (a report names its own). */
    member: Id.optional(),
  })
  .strict()
export type DecideRequest = z.infer<typeof DecideRequest>

export const DecideResponse = z.object({
  status: z.literal('done'),
  sanction: SanctionView.nullable(),
  /** Created → decided, in seconds. */
  action_seconds: z.number().int(),
})
export type DecideResponse = z.infer<typeof DecideResponse>

export const DsaQuery = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
})

export const DsaResponse = z.object({
  from: z.string(),
  to: z.string(),
  /** Notices received, by type: report (members), complaint_notice, complaint_decision. */
  notices: z.record(z.string(), z.number().int()),
  /** Decisions taken, by action. */
  actions: z.record(z.string(), z.number().int()),
  /** Median created → decided over the decisions in the range; null when none. */
  median_action_seconds: z.number().nullable(),
  appeals: z.object({
    received: z.number().int(),
    upheld: z.number().int(),
    lifted: z.number().int(),
    open: z.number().int(),
  }),
  /** Automated means used for decisions: none (every decision is a moderator's). */
  automated: z.literal(false),
})
export type DsaResponse = z.infer<typeof DsaResponse>

/** One statement of reasons on its way to the DSA Transparency Database (Art. 24(5)). */
export const TransparencySubmission = z.object({
  id: z.number().int(),
  sanction: z.number().int(),
  kind: z.string(),
  rule: z.string(),
  status: z.enum(['queued', 'submitted', 'failed']),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  remote_id: z.string().nullable(),
  submitted_at: z.string().nullable(),
  created_at: z.string(),
})
export type TransparencySubmission = z.infer<typeof TransparencySubmission>
/** GET /api/operator/transparency.php: whether submitting is on, and the newest 100 submissions. */
export const TransparencyResponse = z.object({
  enabled: z.boolean(),
  submissions: z.array(TransparencySubmission),
})
export type TransparencyResponse = z.infer<typeof TransparencyResponse>

export const moderationEndpoints = {
  operatorQueue: {
    method: 'GET',
    path: '/api/operator/queue.php',
    response: QueueResponse,
    capability: 'moderate',
  },
  operatorQueueItem: {
    method: 'GET',
    path: '/api/operator/queue_item.php',
    query: QueueItemQuery,
    response: QueueItemDetail,
    capability: 'moderate',
  },
  operatorDecide: {
    method: 'POST',
    path: '/api/operator/decide.php',
    body: DecideRequest,
    response: DecideResponse,
    capability: 'moderate',
  },
  operatorDsa: {
    method: 'GET',
    path: '/api/operator/dsa.php',
    query: DsaQuery,
    response: DsaResponse,
    capability: 'reports.dsa',
  },
  operatorTransparency: {
    method: 'GET',
    path: '/api/operator/transparency.php',
    response: TransparencyResponse,
    capability: 'reports.dsa',
  },
} as const
