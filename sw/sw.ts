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
  type PrecacheEntry,
  precacheAndRoute,
} from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { CacheFirst, StaleWhileRevalidate } from 'workbox-strategies'
import {
  I18N_CACHE,
  I18N_MAX_AGE_S,
  I18N_MAX_ENTRIES,
  IMAGE_CACHE,
  IMAGE_MAX_AGE_S,
  IMAGE_MAX_ENTRIES,
  NAVIGATION_DENYLIST,
  NOTIFICATION_BADGE_ICON,
  NOTIFICATION_ICON,
} from './config.ts'
import { isLocaleMessages, isMediaImage } from './match.ts'
import type { PushPayload, SwToPageMessage } from './messages.ts'
import { parsePageMessage } from './page-message.ts'
import { chooseClickTarget, notificationUrl, parsePushPayload, resolveClickUrl } from './push.ts'

declare const self: ServiceWorkerGlobalScope & {
  // Replaced at build time by workbox-build with the list of built files.
  __WB_MANIFEST: Array<PrecacheEntry | string>
}

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
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NAVIGATION_DENYLIST }),
  )
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
      // Pages relay badges after a signed-in sync, and 0 just before
      // CLEAR_USER_CACHES when a session ends (app/features/pwa.ts).
      signedIn = true
      event.waitUntil(setBadge(message.count))
      break
    case 'CLEAR_USER_CACHES':
      signedIn = false
      event.waitUntil(clearUserCaches())
      break
  }
})

// Logout: the member's photos (and the expiration records naming their URLs)
// must not outlive the session on a shared device.
async function clearUserCaches(): Promise<void> {
  await imageExpiration.deleteCacheAndMetadata()
  await self.caches.delete(IMAGE_CACHE)
  // The plugin only knows caches it touched since this worker started; this
  // also clears records left by an earlier run.
  await new CacheExpiration(IMAGE_CACHE, { maxEntries: IMAGE_MAX_ENTRIES }).delete()
}

// --- Push and notifications ----------------------------------------------------

// Whether a member is signed in on this device, as the pages last said; lost
// when the browser stops this worker (then undefined: see notificationUrl).
let signedIn: boolean | undefined

self.addEventListener('push', (event) => {
  const payload = parsePushPayload(event.data?.text())
  event.waitUntil(handlePush(payload))
})

async function handlePush(payload: PushPayload): Promise<void> {
  const url = resolveClickUrl(payload.url, self.location.origin)
  const openUrl =
    payload.openUrl === undefined ? url : resolveClickUrl(payload.openUrl, self.location.origin)
  const options: NotificationOptions & { renotify?: boolean } = {
    body: payload.body,
    icon: NOTIFICATION_ICON,
    badge: NOTIFICATION_BADGE_ICON,
    data: { url, openUrl },
  }
  if (payload.tag !== undefined) {
    options.tag = payload.tag
    // A new message in the same chat replaces the old notification but
    // should still alert.
    options.renotify = true
  }
  await Promise.all([
    self.registration.showNotification(payload.title, options),
    payload.badge === undefined ? undefined : setBadge(payload.badge),
    // The app syncs at once on this (ARCHITECTURE.md, "Data and sync").
    postToWindows({ type: 'push', payload }),
  ])
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = resolveClickUrl(
    notificationUrl(event.notification.data, signedIn),
    self.location.origin,
  )
  event.waitUntil(openOrFocus(url))
})

async function openOrFocus(url: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const choice = chooseClickTarget(windows, url)
  if (choice.action === 'open') {
    await self.clients.openWindow(choice.url)
    return
  }
  const client = await choice.client.focus()
  if (!choice.navigate) return
  try {
    await client.navigate(url)
  } catch {
    // navigate() rejects for a window this worker does not control (first
    // visit, hard reload); a new window still takes the member there.
    await self.clients.openWindow(url)
  }
}

async function postToWindows(message: SwToPageMessage): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  for (const client of windows) client.postMessage(message)
}

// --- Install badge -------------------------------------------------------------

// Install badge = unread messages + new likes (spec §4). The Badging API is
// missing in some browsers and rejects when not allowed; the badge is a
// nicety, so failures are ignored.
async function setBadge(count: number): Promise<void> {
  const nav = self.navigator
  try {
    if (count > 0) {
      if ('setAppBadge' in nav) await nav.setAppBadge(count)
    } else if ('clearAppBadge' in nav) {
      await nav.clearAppBadge()
    }
  } catch {
    // Not installed or not permitted: nothing to do.
  }
}
