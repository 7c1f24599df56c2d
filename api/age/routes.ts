import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { ApiFailure } from '../http/errors.ts'
import { enforce } from '../http/ratelimit.ts'
import { type AuthEnv, nowOf, requireMember } from '../http/session.ts'
import { bodyOf, pathOf, queryOf, validate } from '../http/validate.ts'
import { type AccountsDeps, linkBase } from '../mail/site.ts'
import { operatorSettings } from '../settings/index.ts'
import {
  type AgeDeps,
  ageStatus,
  answerCheck,
  checkState,
  requestObjectOf,
  startCheck,
} from './age.ts'

/** The site's own origin for the response URI; a request to a foreign host gets none. */
function baseOf(c: Parameters<typeof linkBase>[0], accounts: AccountsDeps): string {
  const { base } = linkBase(c, accounts)
  if (base === null) throw new ApiFailure(409, 'unknown_site_host')
  return base
}

export const ageRoutes = (db: Db, deps: AgeDeps, accounts: AccountsDeps) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.ageStatus), requireMember(db), async (c) => {
      const settings = await operatorSettings(db, c.req.header('host'))
      return c.json(await ageStatus(db, c.get('memberId'), settings.age_assurance))
    })
    .post(pathOf(endpoints.ageStart), requireMember(db), bodyOf(endpoints.ageStart), async (c) => {
      await enforce(c, db, 'age_request', String(c.get('memberId')))
      const settings = await operatorSettings(db, c.req.header('host'))
      const started = await startCheck(db, deps, {
        memberId: c.get('memberId'),
        providerId: c.req.valid('json').provider,
        base: baseOf(c, accounts),
        siteName: settings.name,
        now: nowOf(c),
      })
      return c.json(started, 201)
    })
    .get(
      pathOf(endpoints.ageRequest),
      requireMember(db),
      queryOf(endpoints.ageRequest),
      async (c) =>
        c.json(await checkState(db, c.get('memberId'), c.req.valid('query').request, nowOf(c))),
    )
    // The wallet fetches the signed request here without a session (the
    // request id in the link is its only key). HEAD runs this same handler;
    // it answers no body, so it does not take the request's state.
    .get(pathOf(endpoints.ageRequestObject), queryOf(endpoints.ageRequestObject), async (c) => {
      const settings = await operatorSettings(db, c.req.header('host'))
      const jwt = await requestObjectOf(db, deps, {
        requestId: c.req.valid('query').request,
        base: baseOf(c, accounts),
        siteName: settings.name,
        now: nowOf(c),
        claim: c.req.method === 'GET',
      })
      return c.body(jwt, 200, {
        'content-type': 'application/oauth-authz-req+jwt',
        'cache-control': 'no-store',
      })
    })
    // The wallet posts here without a session: the request id and its nonce,
    // bound into the signed presentation, are what tie the answer to a
    // member; an error answer, which has no signature, needs the request's
    // state (age.ts answerCheck).
    .post(
      pathOf(endpoints.ageWalletResponse),
      queryOf(endpoints.ageWalletResponse),
      validate('form', endpoints.ageWalletResponse.body),
      async (c) => {
        const settings = await operatorSettings(db, c.req.header('host'))
        const form = Object.fromEntries(
          Object.entries(c.req.valid('form')).filter(([, v]) => v !== undefined),
        ) as Record<string, string>
        await answerCheck(db, deps, {
          requestId: c.req.valid('query').request,
          base: baseOf(c, accounts),
          siteName: settings.name,
          form,
          now: nowOf(c),
        })
        return c.json({})
      },
    )
