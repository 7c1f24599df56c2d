import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { fileReport, setBlock } from '../blocks/index.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { CreditsResponse, TypingResponse } from '../contract/index.ts'
import { EVENTS_KEEPALIVE_MS, EVENTS_SESSION_CHECK_MS } from '../contract/rules/messages.ts'
import { currencyOf } from '../contract/rules/payments.ts'
import { messageCost, zeroCredits } from '../credits/index.ts'
import type { EventBus } from '../events/bus.ts'
import { notFound } from '../http/errors.ts'
import { liveStreams } from '../http/live-streams.ts'
import { messagesSent } from '../http/metrics.ts'
import { enforce } from '../http/ratelimit.ts'
import { type AuthEnv, requireMember, requireSessionCookie } from '../http/session.ts'
import { createStreamSessions } from '../http/stream-sessions.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import { type AccountsDeps, linkBase } from '../mail/site.ts'
import { creditValueOf } from '../payments/index.ts'
import { cachedOperatorSettings, loadSettings } from '../settings/index.ts'
import { liveMember } from '../shared/members.ts'
import { hideChat, listMessages, markRead, messageSentBy, sendAsSession } from './messages.ts'
import type { SendGathering } from '../config.ts'
import { sendTyping } from './typing.ts'

/** How often the event stream sends a keep-alive and checks its session. */
export interface EventsTiming {
  keepAliveMs: number
  sessionCheckMs: number
}

export interface MessagesDeps {
  events: EventBus
  /** Default: EVENTS_KEEPALIVE_MS and EVENTS_SESSION_CHECK_MS. */
  eventsTiming?: EventsTiming
  accounts: AccountsDeps
  /** Where reports go (COMPLAINTS_EMAIL). */
  complaintsTo: string
  /** Developer endpoints (spec §2 developer panel) exist only on a development configuration. */
  dev: boolean
  /** The job queue, poked after a send so its push goes out at once. */
  jobs?: { poke(): void }
  /**
   * Per-member send limits (api/http/member-limits.ts); default on. Off only
   * for benchmarks and tests that send in bulk on purpose.
   */
  memberLimits?: boolean
  /** When sends go together (api/chats/send-batch.ts; api/config.ts loadSendGathering). */
  sendGathering: SendGathering
  /** The clock of the streams' session checks (tests move it; AppDeps.now). */
  now?: () => Date
}

/**
 * The balance, a message's credits and the member's value of a credit (the
 * one rule, api/contract/rules/credit-value.ts): the member's row gives the
 * balance and the currency, the payments domain the value, in one statement.
 */
async function creditsOf(db: Db, memberId: number, host?: string): Promise<CreditsResponse> {
  const [cost, me, site] = await Promise.all([
    messageCost(db),
    liveMember(db, memberId),
    cachedOperatorSettings(db, host),
  ])
  const photo_cost = site.photo_message_credits
  if (!me) return { credits: 0, message_cost: cost, photo_cost, credit_value: null }
  const value = await creditValueOf(db, memberId, currencyOf(me.country))
  return { credits: me.credits, message_cost: cost, photo_cost, credit_value: value }
}

/** Reading and sending messages, marking a chat read, deleting it, and the typing signal. */
const messagingRoutes = (db: Db, deps: MessagesDeps) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.messages), requireMember(db), queryOf(endpoints.messages), async (c) =>
      c.json(await listMessages(db, c.get('memberId'), c.req.valid('query'))),
    )
    // No requireMember: the common send checks the session in its own
    // statement, one round trip in all (sendAsSession).
    .post(
      pathOf(endpoints.sendMessage),
      requireSessionCookie,
      bodyOf(endpoints.sendMessage),
      async (c) => {
        const { conversation, text, client_id } = c.req.valid('json')
        const { created, pushed, answer } = await sendAsSession(
          c,
          db,
          {
            conversation,
            text,
            clientId: client_id,
            // Where a mail to the recipient links (none for a request to an unknown host).
            mailBase: linkBase(c, deps.accounts).base,
          },
          {
            host: c.req.header('host'),
            paced: deps.memberLimits !== false,
            gathering: deps.sendGathering,
          },
        )
        if (pushed) deps.jobs?.poke()
        if (created) messagesSent.inc()
        return c.json(answer, created ? 201 : 200)
      },
    )
    .put(pathOf(endpoints.chatRead), requireMember(db), bodyOf(endpoints.chatRead), async (c) => {
      const { conversation } = c.req.valid('json')
      await markRead(db, c.get('memberId'), conversation)
      return c.json({ conversation, unread: 0 as const })
    })
    .delete(
      pathOf(endpoints.chatDelete),
      requireMember(db),
      bodyOf(endpoints.chatDelete),
      async (c) => {
        const { conversation } = c.req.valid('json')
        await hideChat(db, c.get('memberId'), conversation)
        return c.json({ conversation, status: 'deleted' as const })
      },
    )
    .post(pathOf(endpoints.typing), requireMember(db), bodyOf(endpoints.typing), async (c) => {
      const memberId = c.get('memberId')
      await enforce(c, db, 'typing', `member:${memberId}`)
      const status = await sendTyping(db, memberId, c.req.valid('json').conversation)
      return c.json({ status } satisfies TypingResponse)
    })

/** The balance, and the developer panel's reset of it to zero. */
const creditRoutes = (db: Db, deps: MessagesDeps) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.credits), requireMember(db), async (c) =>
      c.json(await creditsOf(db, c.get('memberId'), c.req.header('host'))),
    )
    .post(pathOf(endpoints.devZeroCredits), requireMember(db), async (c) => {
      if (!deps.dev) throw notFound()
      await zeroCredits(db, c.get('memberId'), 'developer panel: credits set to zero')
      return c.json(await creditsOf(db, c.get('memberId')))
    })

/** Blocking and unblocking a member, and reporting one. */
const blockAndReportRoutes = (db: Db, deps: MessagesDeps) =>
  new Hono<AuthEnv>()
    .post(pathOf(endpoints.block), requireMember(db), bodyOf(endpoints.block), async (c) =>
      c.json(await setBlock(db, c.get('memberId'), c.req.valid('json').profile, true)),
    )
    .delete(pathOf(endpoints.unblock), requireMember(db), bodyOf(endpoints.unblock), async (c) =>
      c.json(await setBlock(db, c.get('memberId'), c.req.valid('json').profile, false)),
    )
    .post(pathOf(endpoints.report), requireMember(db), bodyOf(endpoints.report), async (c) => {
      const settings = await loadSettings(db)
      const base = deps.accounts.publicUrl ?? new URL(c.req.url).origin
      const receipt = await fileReport(db, c.get('memberId'), c.req.valid('json'), {
        mailer: deps.accounts.mailer,
        complaintsTo: deps.complaintsTo,
        site: settings.name,
        profileLink: (id) => `${base}/members/${id}`,
        sentBy: messageSentBy,
      })
      return c.json(receipt, 201)
    })

/**
 * Messages paid with credits (GET/POST /api/messages.php), read and delete
 * of a chat (PUT/DELETE /api/chat.php), the balance (GET /api/credits.php),
 * the live stream (GET /api/events.php), blocks and reports. Every one needs
 * a session (403 without, spec §8); a conversation the member is not in is
 * 404 on every one of them.
 */
export const messageRoutes = (db: Db, deps: MessagesDeps) => {
  const timing = deps.eventsTiming ?? {
    keepAliveMs: EVENTS_KEEPALIVE_MS,
    sessionCheckMs: EVENTS_SESSION_CHECK_MS,
  }
  // The client stops polling while its stream is up, so a stream must end
  // when its session does (logout elsewhere, expiry, account deleted): all
  // of this process's streams are checked in one statement per period, as
  // often as the spec's user poll would have noticed.
  const streamSessions = createStreamSessions(db, {
    everyMs: timing.sessionCheckMs,
    ...(deps.now ? { now: deps.now } : {}),
  })
  const streams = liveStreams(deps.events, streamSessions, timing.keepAliveMs)
  return (
    new Hono<AuthEnv>()
      .route('/', messagingRoutes(db, deps))
      .route('/', creditRoutes(db, deps))
      .route('/', blockAndReportRoutes(db, deps))
      // The live stream (api/http/live-streams.ts), written to the socket directly.
      .get(pathOf(endpoints.events), requireMember(db), (c) =>
        streams.answer(c, c.get('memberId'), c.get('sessionId')),
      )
  )
}
