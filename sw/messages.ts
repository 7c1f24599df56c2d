// The messages exchanged between the page and the service worker. Types only,
// so the app can `import type` them without pulling any worker code into its
// bundle (the worker bundle and the app bundle share nothing at run time).

// What a push carries: the contract's types (the server builds the same
// JSON), taken as types only (erased at build). The worker's files take them
// from here, its one door to the contract.
import type { ReceivedPushPayload } from '../api/contract/rules/push.ts'

export type { PushKind, ReceivedPushPayload } from '../api/contract/rules/push.ts'

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
  // A push arrived: the app triggers a sync at once (docs/architecture.md, "Data and sync").
  { type: 'push'; payload: ReceivedPushPayload }
