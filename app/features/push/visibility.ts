// A member looking at the site hears news through the live stream, not a
// push (docs/push.md): while a page is visible and a member signed in, the
// server is told so every VISIBLE_PING_MS and holds that for VISIBLE_HOLD_MS
// (api/contract/rules/visibility.ts); going hidden tells it at once.
import { VISIBLE_PING_MS } from '../../../api/contract/rules/visibility.ts'
import { worker } from '../../data/worker.ts'

export function startVisibilityReports() {
  let signedIn = false
  let timer: ReturnType<typeof setInterval> | undefined
  const visible = () => document.visibilityState === 'visible'
  const update = () => {
    const on = signedIn && visible()
    if (on && timer === undefined) {
      void worker().pushVisible(true)
      timer = setInterval(() => void worker().pushVisible(true), VISIBLE_PING_MS)
    } else if (!on && timer !== undefined) {
      clearInterval(timer)
      timer = undefined
      // A signed-out page has no session left to report for.
      if (signedIn) void worker().pushVisible(false)
    }
  }
  document.addEventListener('visibilitychange', update)
  return {
    setSignedIn(value: boolean) {
      signedIn = value
      update()
    },
  }
}
