// Service worker entry: it must not import the app bundle (app/, sync/, api/, db/); it is bundled on its own into dist/sw.js.
/// <reference lib="webworker" />
// Served at /sw.js with scope / (registered by app/main.tsx) and built by
// tools/sw-vite-plugin.ts as a classic script, which is why it imports only Workbox
// and its own helpers. The server must send it with `Cache-Control: no-cache`
// so that an update is seen on the next navigation.

import { CacheableResponsePlugin } from 'workbox-cacheable-response'
import { clientsClaim } from 'workbox-core'
import { CacheExpiration, ExpirationPlugin } from 'workbox-expiration'
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  getCacheKeyForURL,
  matchPrecache,
  type PrecacheEntry,
  precacheAndRoute,
} from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { CacheFirst, StaleWhileRevalidate } from 'workbox-strategies'
import { setBadge } from './badge.ts'
import {
  I18N_CACHE,
  I18N_MAX_AGE_S,
  I18N_MAX_ENTRIES,
  IMAGE_CACHE,
  IMAGE_MAX_AGE_S,
  IMAGE_MAX_ENTRIES,
  NAVIGATION_DENYLIST,
  PUSH_WORKER_URL,
} from './config.ts'
import { isLocaleMessages, isMediaImage } from './match.ts'
import { parsePageMessage } from './page-message.ts'
import {
  AFTER_PAINT_SCRIPT,
  AFTER_PAINT_URL,
  PAGE_SNAPSHOT_CACHE,
  SNAPSHOT_HEADERS,
  shellWithPage,
  stylesheetsOf,
  withStylesInline,
} from './snapshot.ts'
import { setLastMessage, setSignedIn, signedIn } from './state.ts'

declare const self: ServiceWorkerGlobalScope & {
  // Replaced at build time by workbox-build with the list of built files.
  __WB_MANIFEST: Array<PrecacheEntry | string>
}

// The push worker (spec §7 /sw-push.js?v=2): push, badge and click handlers.
// Loaded here because one scope holds one worker (docs/push.md); it must be
// imported during this first run, before any event.
importScripts(PUSH_WORKER_URL)

// --- Lifecycle -------------------------------------------------------------

// No skipWaiting() here: a new version waits until the page asks (message
// SKIP_WAITING from the update prompt), so a running chat is never swapped
// under the member's feet (spec §4: installed, waiting, activated, needs-refresh).
// Once active it takes control of open pages at once.
clientsClaim()

// --- App shell ---------------------------------------------------------------

// The built shell: index.html and every asset Vite emitted (all route chunks,
// so any screen opens offline). Hashed files are fetched once; index.html is
// refreshed by revision.
precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

// Every app path is a client route: answer navigations with the precached
// shell, so deep links work offline. The dev server's worker precaches
// nothing, so the route exists only when the shell is in the precache.
if (getCacheKeyForURL('/index.html') !== undefined) {
  const shell = createHandlerBoundToURL('/index.html')
  registerRoute(
    new NavigationRoute(async (options) => withStoredPage(await shell(options), options.url), {
      denylist: NAVIGATION_DENYLIST,
    }),
  )
}

// The starter of a stored page's scripts (sw/snapshot.ts): an answer of its own.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === AFTER_PAINT_URL,
  async () =>
    new Response(AFTER_PAINT_SCRIPT, {
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' },
    }),
)

/**
 * Offline, a member's start page (sw/snapshot.ts) comes with the copy of it
 * the page last stored, so it paints with the HTML, before any script ran.
 * Online the app's own render comes as soon from the store, with nothing
 * stale in between, and a page can only be stored for a signed-in member.
 * Anything amiss (no copy, another shell, a cache that cannot be read)
 * answers the plain shell.
 */
async function withStoredPage(response: Response, url: URL): Promise<Response> {
  if (self.navigator.onLine || url.search !== '' || !response.ok) return response
  try {
    // Side by side: each read is a few ms of the worker's thread.
    const [member, stored, shell] = await Promise.all([
      signedIn(),
      self.caches.match(url.pathname, { cacheName: PAGE_SNAPSHOT_CACHE }),
      response.clone().text(),
    ])
    if (member !== true || !stored) return response
    const page = {
      html: await stored.text(),
      shell: stored.headers.get(SNAPSHOT_HEADERS.shell) ?? '',
      lang: stored.headers.get(SNAPSHOT_HEADERS.lang) ?? '',
    }
    const html = shellWithPage(shell, url.pathname, page)
    if (html === undefined) return response
    const sheets = new Map<string, string>()
    await Promise.all(
      stylesheetsOf(shell).map(async (href) => {
        const css = await matchPrecache(href)
        if (css) sheets.set(href, await css.text())
      }),
    )
    return new Response(withStylesInline(html, sheets), {
      status: response.status,
      headers: withoutLength(response.headers),
    })
  } catch (e) {
    console.warn('the stored page could not be added to the shell', e)
    return response
  }
}

/** The headers of an answer whose body is rewritten (its old length would cut it). */
function withoutLength(headers: Headers): Headers {
  const copy = new Headers(headers)
  copy.delete('content-length')
  return copy
}

// --- Runtime caches ----------------------------------------------------------

// API GETs get no route on purpose: the app's offline data lives in IndexedDB,
// written by the sync worker; a cached API answer would only be stale.

const imageExpiration = new ExpirationPlugin({
  maxEntries: IMAGE_MAX_ENTRIES,
  maxAgeSeconds: IMAGE_MAX_AGE_S,
  // Opaque CDN responses count heavily against the quota; drop the cache
  // rather than fail the app's own storage.
  purgeOnQuotaError: true,
})

registerRoute(
  ({ url, request }) => isMediaImage(url, request.destination, self.location.origin),
  new CacheFirst({
    cacheName: IMAGE_CACHE,
    plugins: [new CacheableResponsePlugin({ statuses: [0, 200] }), imageExpiration],
  }),
)

registerRoute(
  ({ url }) => isLocaleMessages(url, self.location.origin),
  new StaleWhileRevalidate({
    cacheName: I18N_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: I18N_MAX_ENTRIES, maxAgeSeconds: I18N_MAX_AGE_S }),
    ],
  }),
)

// --- Messages from the page ----------------------------------------------------

self.addEventListener('message', (event) => {
  const message = parsePageMessage(event.data)
  if (message === undefined) return
  switch (message.type) {
    case 'SKIP_WAITING':
      event.waitUntil(self.skipWaiting())
      break
    case 'SET_BADGE':
      event.waitUntil(setBadge(message.count))
      break
    case 'SESSION':
      // A page with a signed-in member (each load and each login).
      event.waitUntil(setSignedIn(true))
      break
    case 'CLEAR_USER_CACHES':
      // The one endSession path of the sync worker, relayed by the page.
      event.waitUntil(endSession())
      break
  }
})

// Logout, account deletion, an expired session: clicks go to the open URL
// from now on, and nothing of the member stays on a shared device — not
// their photos, their notifications, their last message, nor this browser's
// push subscription (the server dropped its row with the session).
async function endSession(): Promise<void> {
  await Promise.all([
    setSignedIn(false),
    setLastMessage(undefined),
    clearUserCaches(),
    setBadge(0),
    self.registration
      .getNotifications()
      .then((shown) => {
        for (const n of shown) n.close()
      })
      .catch(() => undefined),
    self.registration.pushManager
      .getSubscription()
      .then((sub) => sub?.unsubscribe())
      .catch(() => undefined),
  ])
}

// Logout: the member's photos (and the expiration records naming their URLs)
// and the stored pages must not outlive the session on a shared device.
async function clearUserCaches(): Promise<void> {
  // The stored pages (sw/snapshot.ts) show the member's chats and matches.
  await self.caches.delete(PAGE_SNAPSHOT_CACHE)
  await imageExpiration.deleteCacheAndMetadata()
  await self.caches.delete(IMAGE_CACHE)
  // The plugin only knows caches it touched since this worker started; this
  // also clears records left by an earlier run.
  await new CacheExpiration(IMAGE_CACHE, { maxEntries: IMAGE_MAX_ENTRIES }).delete()
}
