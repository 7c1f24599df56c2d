// The withdrawal function over HTTP (CRD Art. 11a); the work is in withdrawal.ts.
import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { ApiFailure } from '../http/errors.ts'
import { enforce } from '../http/ratelimit.ts'
import { type AuthEnv, nowOf, requireMember } from '../http/session.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import type { AccountsDeps } from '../mail/site.ts'
import { ipOf, linkBase } from '../mail/site.ts'
import {
  mailWithdrawalLink,
  orderOfLink,
  ownOrder,
  purchaseOf,
  purchasesOf,
  withdraw,
} from './withdrawal.ts'

export interface WithdrawalRouteDeps {
  accounts: AccountsDeps
  /** Poked after a withdrawal so its refund and mail go out at once. */
  jobs?: { poke(): void }
}

export function withdrawalRoutes(db: Db, deps: WithdrawalRouteDeps) {
  const baseOf = (c: Parameters<typeof linkBase>[0]) => {
    const { base } = linkBase(c, deps.accounts)
    if (!base) throw new ApiFailure(403, 'unknown_host', undefined, 'not a host of this site')
    return base
  }
  return new Hono<AuthEnv>()
    .get(pathOf(endpoints.purchases), requireMember(db), async (c) =>
      c.json({ purchases: await purchasesOf(db, c.get('memberId'), nowOf(c)) }),
    )
    .post(pathOf(endpoints.withdraw), requireMember(db), bodyOf(endpoints.withdraw), async (c) => {
      const order = await ownOrder(db, c.get('memberId'), c.req.valid('json').order)
      const wd = { base: baseOf(c), jobs: deps.jobs }
      return c.json(await withdraw(db, wd, order, 'member', nowOf(c)))
    })
    .post(
      pathOf(endpoints.withdrawalLink),
      async (c, next) => {
        await enforce(c, db, 'withdrawal_link', ipOf(c, deps.accounts))
        await next()
      },
      bodyOf(endpoints.withdrawalLink),
      async (c) => {
        const { email, order } = c.req.valid('json')
        await enforce(c, db, 'withdrawal_link_order', order)
        await mailWithdrawalLink(db, baseOf(c), email, order, nowOf(c))
        deps.jobs?.poke()
        // The same answer whether or not the address and the order match.
        return c.json({ sent: true as const })
      },
    )
    .get(
      pathOf(endpoints.withdrawalLinkPurchase),
      queryOf(endpoints.withdrawalLinkPurchase),
      async (c) => {
        const now = nowOf(c)
        const order = await orderOfLink(db, c.req.valid('query').token, now)
        return c.json({ purchase: await purchaseOf(db, order, now) })
      },
    )
    .post(
      pathOf(endpoints.withdrawalConfirm),
      async (c, next) => {
        await enforce(c, db, 'withdrawal_link', ipOf(c, deps.accounts))
        await next()
      },
      bodyOf(endpoints.withdrawalConfirm),
      async (c) => {
        const now = nowOf(c)
        const order = await orderOfLink(db, c.req.valid('json').token, now)
        const wd = { base: baseOf(c), jobs: deps.jobs }
        return c.json(await withdraw(db, wd, order, 'link', now))
      },
    )
}
