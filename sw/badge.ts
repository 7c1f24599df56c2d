/// <reference lib="webworker" />
// Install badge = unread messages + new likes (spec §4). The Badging API is
// missing in some browsers and rejects when not allowed; the badge is a
// nicety, so failures are ignored.
export async function setBadge(count: number): Promise<void> {
  const nav = (self as unknown as ServiceWorkerGlobalScope).navigator
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
