// Push's part of the worker's Comlink api (docs/push.md): the member's
// choices, this device turning push off, the test notification, and the
// visibility reports that keep pushes away while the member looks at the site.
import { endpoints, type PushPreferencesUpdate } from '../../api/contract/index.ts'
import { ok, type Result } from '../core/errors.ts'
import { clientHeaders, endpointUrl, request } from '../core/http.ts'

export interface PushDeps {
  /** The device's push state for the polling interval (spec §9). */
  setPushSubscribed(subscribed: boolean): Promise<void>
}

export function pushHandlers({ setPushSubscribed }: PushDeps) {
  return {
    pushPreferences: () => request('pushPreferences'),
    setPushPreferences: (update: PushPreferencesUpdate) =>
      request('pushPreferencesUpdate', { body: update }),
    /** Push off on this device: the server forgets the endpoint, polling is 60 s again. */
    async removePushSubscription(endpoint: string): Promise<Result<null>> {
      const res = await request('pushUnsubscribe', { body: { endpoint } })
      await setPushSubscribed(false)
      return res.ok ? ok(null) : res
    },
    sendTestPush: () => request('pushTest'),
    /**
     * A page of the site is visible (repeated while it stays so) or hidden.
     * keepalive: the hidden report is sent as the page goes away.
     */
    async pushVisible(visible: boolean): Promise<void> {
      await fetch(endpointUrl('pushVisibility', { visible: visible ? 1 : 0 }), {
        method: endpoints.pushVisibility.method,
        keepalive: true,
        credentials: 'same-origin',
        headers: clientHeaders(),
      }).catch(() => undefined) // best effort: the hold expires by itself
    },
  }
}

export type PushHandlers = ReturnType<typeof pushHandlers>
