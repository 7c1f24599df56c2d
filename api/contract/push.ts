// Push on this site beyond spec §7's subscribe call (the spec is silent on
// the rest): what notifies a member, a device leaving push, the test
// notification, and whether a page of the site is visible (then the live
// stream tells, not a push). All signed in.
import { z } from 'zod'

/** GET/PUT /api/push.php: what notifies (push, and the new-message mails alike). */
export const PushPreferences = z.object({ messages: z.boolean(), likes: z.boolean() })
export type PushPreferences = z.infer<typeof PushPreferences>

/** PUT: either or both. */
export const PushPreferencesUpdate = z
  .object({ messages: z.boolean().optional(), likes: z.boolean().optional() })
  .strict()
export type PushPreferencesUpdate = z.input<typeof PushPreferencesUpdate>

/** DELETE /api/push.php: this browser's endpoint (push turned off on the device). */
export const PushUnsubscribeRequest = z.object({ endpoint: z.string().min(1).max(2048) })
export type PushUnsubscribeRequest = z.input<typeof PushUnsubscribeRequest>
export const PushUnsubscribeResponse = z.object({ status: z.literal('unsubscribed') })
export type PushUnsubscribeResponse = z.infer<typeof PushUnsubscribeResponse>

/** POST /api/push-test.php: a notification to each of the member's devices. */
export const PushTestResponse = z.object({
  status: z.enum(['queued', 'no_device']),
  devices: z.number().int().min(0),
})
export type PushTestResponse = z.infer<typeof PushTestResponse>

/** POST /api/push-visibility.php?visible=1|0: a page of the site became visible (and stays so) or hidden. */
export const PushVisibilityQuery = z.object({ visible: z.enum(['0', '1']) })
