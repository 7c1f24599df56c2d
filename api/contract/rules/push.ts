// Spec §4 push and install badge: the JSON a push message carries, built by
// the server (api/push/payload.ts) and read by the service worker
// (sw/push.ts parsePushPayload). Types only: sw/ may take types from rules/
// and nothing else of the contract (layers.test.ts).

/** What a push is about: a message, a like, a visit to the profile, or the member's test notification. */
export type PushKind = 'message' | 'like' | 'visit' | 'test'

/** The JSON a push message carries, in the recipient's language. */
export interface PushPayload {
  kind: PushKind
  title: string
  body: string
  /** Spec §4 check URL: where a click goes on a device with a signed-in member. */
  url: string
  /** Spec §4 open URL: where a click goes on a signed-out device (login, then the check URL). */
  open_url: string
  /** Spec §4 install badge: unread messages + new likes of the recipient. */
  badge: number
  /** One notification per chat (and one for likes): a newer one replaces it. */
  tag: string
  conversation?: number
}

/**
 * A push as the service worker reads it: any text may arrive (browsers show
 * a notification for every push), so only a title and a body are sure (the
 * worker fills them in); every other field is there when the JSON had it with
 * the right type.
 */
export type ReceivedPushPayload = Pick<PushPayload, 'title' | 'body'> &
  Partial<Omit<PushPayload, 'title' | 'body'>>
