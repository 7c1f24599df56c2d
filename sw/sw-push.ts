// Push worker entry: it must not import the app bundle (app/, sync/, api/, db/); built on its own into dist/sw-push.js.
/// <reference lib="webworker" />
// Served at /sw-push.js?v=2 (spec §7 push worker) as a classic worker
// script. One scope holds one service worker, so it is not registered
// beside /sw.js: /sw.js loads it with importScripts('/sw-push.js?v=2') and
// the two run as one worker at scope / (docs/push.md). It holds everything
// push: showing the notification, the badge, lastMessage, and the click.

import { setBadge } from './badge.ts'
import { NOTIFICATION_BADGE_ICON, NOTIFICATION_ICON } from './config.ts'
import type { ReceivedPushPayload, SwToPageMessage } from './messages.ts'
import { chooseClickTarget, notificationUrl, parsePushPayload, resolveClickUrl } from './push.ts'
import { setLastMessage, signedIn } from './state.ts'

declare const self: ServiceWorkerGlobalScope & {
  /** The click's work, callable from the worker's own console (browser tests). */
  __amoraNotificationClick?: (notification: Notification) => Promise<void>
}

// Every push shows a notification (userVisibleOnly: a silent push would cost
// the subscription in Chrome and is not allowed in Safari).
self.addEventListener('push', (event) => {
  const payload = parsePushPayload(event.data?.text())
  event.waitUntil(handlePush(payload))
})

async function handlePush(payload: ReceivedPushPayload): Promise<void> {
  const url = resolveClickUrl(payload.url, self.location.origin)
  const openUrl =
    payload.open_url === undefined ? url : resolveClickUrl(payload.open_url, self.location.origin)
  const options: NotificationOptions & { renotify?: boolean } = {
    body: payload.body,
    icon: NOTIFICATION_ICON,
    badge: NOTIFICATION_BADGE_ICON,
    // The badge count rides along so a page (or a test) can read what was set.
    data: { url, openUrl, badge: payload.badge },
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
    setLastMessage(payload).catch(() => undefined),
    // Open tabs sync at once (docs/architecture.md, "Data and sync").
    postToWindows({ type: 'push', payload }),
  ])
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  event.waitUntil(notificationClick(event.notification))
})

/** Spec §4: the check URL when a member is signed in here, else the open URL. */
async function notificationClick(notification: Notification): Promise<void> {
  const state = await signedIn().catch(() => undefined)
  const url = resolveClickUrl(notificationUrl(notification.data, state), self.location.origin)
  await openOrFocus(url)
}
self.__amoraNotificationClick = notificationClick

async function openOrFocus(url: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const choice = chooseClickTarget(windows, url)
  if (choice.action === 'open') {
    await self.clients.openWindow(choice.url)
    return
  }
  let client: WindowClient = choice.client
  try {
    client = await client.focus()
  } catch {
    // focus() needs the click's user activation; the window still navigates.
  }
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
