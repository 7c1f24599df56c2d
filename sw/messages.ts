// The messages exchanged between the page and the service worker. Types only,
// so the app can `import type` them without pulling any worker code into its
// bundle (the worker bundle and the app bundle share nothing at run time).

// What a push message carries once parsed (see parsePushPayload in push.ts).
export type PushPayload = {
  title: string
  body: string
  // Spec §4 check URL: the same-origin path a click opens for a signed-in
  // member; the chat list when absent.
  url?: string
  // Spec §4 open URL: what a click opens on a device known to be signed out
  // (the login page, continuing to the check URL); `url` when absent.
  openUrl?: string
  // Install badge = unread messages + new likes (spec §4), computed server side.
  badge?: number
  // Notifications with the same tag replace each other (one per chat).
  tag?: string
  // message, like or test (api/push/payload.ts).
  kind?: string
}

// Page -> service worker, sent with `navigator.serviceWorker.controller.postMessage`
// (or `registration.waiting.postMessage` for SKIP_WAITING).
export type PageToSwMessage =
  // The member accepted the update prompt: activate the waiting worker now.
  | { type: 'SKIP_WAITING' }
  // Install badge from the local store; 0 clears it.
  | { type: 'SET_BADGE'; count: number }
  // A member is signed in on this device (each page load with one, each
  // login): notification clicks go to the check URL (spec §4).
  | { type: 'SESSION' }
  // The session ended (the sync worker's one endSession path): drop the
  // member's photos, notifications, last message and push subscription.
  | { type: 'CLEAR_USER_CACHES' }

// Service worker -> every window client.
export type SwToPageMessage =
  // A push arrived: the app triggers a sync at once (ARCHITECTURE.md "Data and sync").
  { type: 'push'; payload: PushPayload }
