// Gifts in a chat (docs/payments.md, "Gifts"): POST /api/message-gift.php
// sends one gift of the site's catalogue (api/gifts/) into a conversation
// that has begun. It is a message like any other, through the one send
// statement: its icon is the text (the recipient's push and the chats list
// read it as a message), the gift as it was sent is stored with it (a later
// change of the catalogue never rewrites a chat), and it is booked through
// the ledger as a gift at the gift's price, idempotent by client id. A gift
// never opens a conversation (409 gift_needs_conversation): an opening is
// what the scam signals and the verified-only choice judge, and a gift has
// no words for them to read.
import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { requireAgeAssurance } from '../age/index.ts'
import { endpoints } from '../contract/endpoints.ts'
import { giftOnSale } from '../gifts/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { requestHost } from '../http/host.ts'
import { messagesSent } from '../http/metrics.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { bodyOf, pathOf } from '../http/validate.ts'
import { type AccountsDeps, linkBase } from '../mail/site.ts'
import { sendMessage } from './messages.ts'

export interface GiftDeps {
  accounts: AccountsDeps
  jobs?: { poke(): void } | undefined
}

export const giftSendRoutes = (db: Db, deps: GiftDeps) =>
  new Hono<AuthEnv>().post(
    pathOf(endpoints.sendGift),
    requireMember(db),
    bodyOf(endpoints.sendGift),
    async (c) => {
      const memberId = c.get('memberId')
      const body = c.req.valid('json')
      const host = requestHost(c, deps.accounts.trustProxy ?? false)
      const gift = await giftOnSale(db, host, body.gift)
      if (!gift) throw new ApiFailure(404, 'not_found', 'gift', 'no such gift on sale here')
      await requireAgeAssurance(db, memberId, c.req.header('host'), 'message')
      const outcome = await sendMessage(
        db,
        memberId,
        {
          conversation: body.conversation,
          text: gift.icon,
          clientId: body.client_id,
          mailBase: linkBase(c, deps.accounts).base,
          gift,
        },
        { cost: gift.credits },
      )
      if (outcome.pushed) deps.jobs?.poke()
      if (outcome.created) messagesSent.inc()
      return c.json(outcome.answer, outcome.created ? 201 : 200)
    },
  )
