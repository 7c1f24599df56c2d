// Mails about new messages, for members who are away from the site. The send
// (api/chats/messages.ts) enqueues a `message-mail` job in its own statement
// when a mail may be due; the job decides and writes the mail (api/mail), which
// the queue then sends. The rule, chosen to tell an away member without
// flooding their inbox:
//
// - Only to a member who wants them: "New messages" on at /notifications (the
//   push choice; mails follow it), activated (a confirmed address), not
//   deleted, not a fictional profile, and not blocked by or blocking the
//   sender. A deleted sender mails nothing either.
// - Only while the member is away: no page of theirs visible (the live stream
//   tells a member who looks), checked when the message is sent and again
//   when the job runs, MESSAGE_MAIL_DELAY_MS later. A message read in that
//   time mails nothing.
// - One mail per conversation until the member reads it or comes back to the
//   site (their last activity is later than that mail): further messages of
//   the same chat add nothing.
// - At most one such mail per member every MESSAGE_MAIL_GAP_MS, whichever
//   chat it is about: a member written to by many is not mailed by each.
// - The mail names the sender and the site and links to the chat and to
//   /notifications; it never quotes the message (an inbox is read on shared
//   screens, and the site is no relay for a stranger's words).
//
// Links use the base of the sender's request (api/mail/site.ts linkBase:
// PUBLIC_URL, or a known site host), and the site's name is that host's; a
// send to an unknown host mails nothing, as every other mail does.
import { sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { blockedBetween } from '../blocks/index.ts'
import type { JobHandlers } from '../jobs/queue.ts'
import { type Mailer, storeMail } from '../mail/mailer.ts'
import { claimMessageMail, messageMailsWanted } from '../push/index.ts'
import { operatorSettings } from '../settings/index.ts'
import { liveMembersSql } from '../shared/members.ts'
import { rowsOf } from '../shared/rows.ts'

/** The job kind, written by the send's SQL and handled here. */
export const MESSAGE_MAIL_JOB = 'message-mail'

/**
 * How long after a message its mail is considered: a member who switched
 * tabs for a moment, or reads on another device, gets none.
 */
export const MESSAGE_MAIL_DELAY_MS = 120_000

/** At most one new-message mail per member in this time (3 hours). */
export const MESSAGE_MAIL_GAP_MS = 3 * 60 * 60_000

/** PostgreSQL intervals of the two times, for the SQL of the send and of the job. */
export const mailDelaySql = sql`${`${MESSAGE_MAIL_DELAY_MS} milliseconds`}::interval`
export const mailGapSql = sql`${`${MESSAGE_MAIL_GAP_MS} milliseconds`}::interval`

const MessageMailJob = z.object({
  memberId: z.number().int(),
  from: z.number().int(),
  conversation: z.number().int(),
  message: z.number().int(),
  /** Absolute base of the links (no trailing slash). */
  base: z.string().url(),
  /** A photo message: the mail says "sent you a photo". */
  photo: z.boolean().optional(),
  /** A voice message: the mail says "sent you a voice message". */
  voice: z.boolean().optional(),
})
export type MessageMailPayload = z.infer<typeof MessageMailJob>

/** Thrown inside the claim transaction to undo it when one of the two claims fails. */
class NotDue extends Error {}

/** What the mail says of the recipient and the sender. */
const MailFacts = z.object({
  email: z.string(),
  name: z.string(),
  language: z.string(),
  sender: z.string(),
})

/**
 * Claims and stores the mail of one message, or nothing when the rule says
 * no. Returns the stored mail's id. The two claims (the conversation's and the
 * member's) are conditional updates in one transaction: two jobs racing for
 * the same member or chat cannot both mail.
 */
export async function mailAboutMessage(db: Db, job: MessageMailPayload): Promise<number | null> {
  const [facts] = await rowsOf(
    db,
    sql`
      SELECT r.email, r.name, r.language, s.name AS sender
      FROM ${liveMembersSql} r
      JOIN ${liveMembersSql} s ON s.id = ${job.from}
      JOIN conversation_members cm
        ON cm.conversation_id = ${job.conversation} AND cm.member_id = r.id
      WHERE r.id = ${job.memberId} AND r.id <> s.id
        AND r.activated_at IS NOT NULL AND NOT r.fictional
        AND cm.unread_count > 0`,
    MailFacts,
  )
  if (!facts) return null
  if (await blockedBetween(db, job.memberId, job.from)) return null
  if (!(await messageMailsWanted(db, job.memberId))) return null
  const site = (await operatorSettings(db, new URL(job.base).host)).name
  try {
    return await db.transaction(async (tx) => {
      const chat = await tx.execute(sql`
        UPDATE conversation_members cm SET mailed_at = now()
        FROM ${liveMembersSql} r
        WHERE cm.conversation_id = ${job.conversation} AND cm.member_id = ${job.memberId}
          AND r.id = cm.member_id
          AND (cm.mailed_at IS NULL OR cm.mailed_at < r.last_active_at)
        RETURNING 1 AS claimed`)
      if (rowCount(chat) === 0) throw new NotDue()
      // The member's claim also re-checks, in the same row lock, that no page
      // of theirs is visible (a member who came back hears it live).
      if (!(await claimMessageMail(tx, job.memberId, mailGapSql))) throw new NotDue()
      return storeMail(tx, {
        memberId: job.memberId,
        kind: 'new_message',
        to: facts.email,
        locale: facts.language,
        vars: {
          name: facts.name,
          site,
          link: `${job.base}/chats/${job.conversation}`,
          message: {
            sender: facts.sender,
            settings: `${job.base}/notifications`,
            ...(job.photo ? { photo: true } : {}),
            ...(job.voice ? { voice: true } : {}),
          },
        },
      })
    })
  } catch (e) {
    if (e instanceof NotDue) return null
    throw e
  }
}

/** Rows a raw statement returned (node-postgres and PGlite both answer {rows}). */
const rowCount = (result: unknown) => (result as { rows?: unknown[] }).rows?.length ?? 0

/** The job handler: writes the mail, then hands it to the mailer (which pokes the queue). */
export function messageMailJobHandlers(db: Db, mailer: Mailer): JobHandlers {
  return {
    [MESSAGE_MAIL_JOB]: async (payload) => {
      const id = await mailAboutMessage(db, MessageMailJob.parse(payload))
      if (id !== null) mailer.send(db, [id])
    },
  }
}
