// The visit count of landers and member landing pages (POST
// /api/lander_visit.php through the worker; api/traffic/visits.ts decides
// what counts). Sent once per page and tab in VISIT_REPEAT_MS (a reload or a
// second render sends nothing), and never from a browser under automation
// (navigator.webdriver): the server leaves bots out as well.
import type { TrackingRecord } from '../../api/contract/rules/tracking.ts'
import { syncWorker } from '../../sync/client.ts'

/** The server counts one visitor once per 30 minutes (LIMITS.lander_visit); the tab asks no more often. */
const VISIT_REPEAT_MS = 30 * 60_000
const KEY = 'amora_visit:'

export function sendLanderVisit(lander: string, record: TrackingRecord | null): void {
  if (navigator.webdriver) return
  try {
    const last = Number(sessionStorage.getItem(KEY + lander) ?? 0)
    if (Date.now() - last < VISIT_REPEAT_MS) return
    sessionStorage.setItem(KEY + lander, String(Date.now()))
  } catch {
    // No sessionStorage (a locked-down browser): the server's window still holds.
  }
  void syncWorker().landerVisit({
    lander,
    ...(record?.network ? { network: record.network } : {}),
    ...(record?.sub1 ? { sub1: record.sub1 } : {}),
  })
}
