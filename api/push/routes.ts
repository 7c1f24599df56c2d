import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { PushTestResponse, PushUnsubscribeResponse } from '../contract/index.ts'
import { enforce } from '../http/ratelimit.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import type { BadgeOf } from './payload.ts'
import {
  enqueueTestPush,
  preferencesOf,
  removeSubscription,
  setPreferences,
  setVisible,
} from './preferences.ts'

/**
 * Push beyond spec §7's subscribe call (api/contract/push.ts): the member's
 * choices, a device turning push off, the test notification, and the
 * visibility reports that keep pushes away from a member looking at the site.
 */
export const pushRoutes = (db: Db, deps: { badgeOf: BadgeOf; jobs?: { poke(): void } }) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.pushPreferences), requireMember(db), async (c) =>
      c.json(await preferencesOf(db, c.get('memberId'))),
    )
    .put(
      pathOf(endpoints.pushPreferencesUpdate),
      requireMember(db),
      bodyOf(endpoints.pushPreferencesUpdate),
      async (c) => c.json(await setPreferences(db, c.get('memberId'), c.req.valid('json'))),
    )
    .delete(
      pathOf(endpoints.pushUnsubscribe),
      requireMember(db),
      bodyOf(endpoints.pushUnsubscribe),
      async (c) => {
        await removeSubscription(db, c.get('memberId'), c.req.valid('json').endpoint)
        return c.json({ status: 'unsubscribed' } satisfies PushUnsubscribeResponse)
      },
    )
    .post(pathOf(endpoints.pushTest), requireMember(db), async (c) => {
      const memberId = c.get('memberId')
      await enforce(c, db, 'push_test', `member:${memberId}`)
      const devices = await enqueueTestPush(db, memberId, deps.badgeOf)
      if (devices > 0) deps.jobs?.poke()
      return c.json({
        status: devices > 0 ? 'queued' : 'no_device',
        devices,
      } satisfies PushTestResponse)
    })
    .post(
      pathOf(endpoints.pushVisibility),
      requireMember(db),
      queryOf(endpoints.pushVisibility),
      async (c) => {
        await setVisible(db, c.get('memberId'), c.req.valid('query').visible === '1')
        return c.body(null, 204)
      },
    )
