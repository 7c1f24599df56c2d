// Names and limits shared by the service worker (sw.ts) and its tests. Pure
// values only: this module runs in the worker, in Node tests and in the build.

// Runtime cache of member photos under /media/. Logout deletes it
// (CLEAR_USER_CACHES): another member on the same device must not see them.
export const IMAGE_CACHE = 'amora-media-v1'
// Enough for a long browsing session of 12-tile search pages (spec §9 page
// size 12) without letting the cache grow without bound.
export const IMAGE_MAX_ENTRIES = 2000
// Photos change rarely and carry their own file names; a month keeps a
// returning member's grid instant offline.
export const IMAGE_MAX_AGE_S = 30 * 24 * 60 * 60

// Runtime cache of /_i18n/{locale}/messages.json (spec §7 calls).
export const I18N_CACHE = 'amora-i18n-v1'
export const I18N_MAX_AGE_S = 86_400 // spec §9: locale messages cache 24 hours
// Seven locales (spec §1), with room for a regional tag or two each.
export const I18N_MAX_ENTRIES = 20

// Where a notification click goes when the push names no URL: the chat list,
// since most pushes announce a message.
export const DEFAULT_CLICK_URL = '/chats'
export const DEFAULT_NOTIFICATION_TITLE = 'Amora'
export const NOTIFICATION_ICON = '/icons/icon-192.png'
// Monochrome status-bar icon (Android draws only its alpha channel).
export const NOTIFICATION_BADGE_ICON = '/icons/badge-96.png'

// Navigations under these prefixes are real server responses (API calls,
// webcam redirects, photos, locale files) and must never get the app shell.
export const NAVIGATION_DENYLIST: RegExp[] = [
  /^\/api\//,
  /^\/media\//,
  /^\/_i18n\//,
  // The operator's console needs the network: its pages answer 404 to
  // anyone but staff, which a cached shell would hide.
  /^\/operator(\/|$)/,
  // The operator's probes and metrics (api/http/health.ts, metrics.ts): a
  // status page that answered with the app shell would say nothing true.
  // Workbox matches the path with its query string.
  /^\/(?:healthz|readyz|metrics)(?:[/?]|$)/,
]

// Spec §7 push worker. /sw.js imports it (one scope, one worker); the
// version query changes when its contract with the page or the server does.
export const PUSH_WORKER_URL = '/sw-push.js?v=2'
