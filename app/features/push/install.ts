// Installing the site as an app (spec §4 install badge lives on the icon):
// where the browser offers it, its `beforeinstallprompt` is kept from the
// first moment of the page and shown on a member's click; iOS Safari has no
// such event, so its "Add to Home Screen" steps are shown instead.

interface InstallPromptEvent extends Event {
  prompt(): Promise<void>
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

let deferred: InstallPromptEvent | null = null
let installed = false
const listeners = new Set<() => void>()
const changed = () => {
  for (const l of listeners) l()
}

/** From app start: the event fires once, early, whether or not a page wants it yet. */
export function captureInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (e) => {
    // Keep the browser's own mini-infobar away: the offer is ours, on a click.
    e.preventDefault()
    deferred = e as InstallPromptEvent
    changed()
  })
  window.addEventListener('appinstalled', () => {
    deferred = null
    installed = true
    changed()
  })
}

export type InstallOffer = 'prompt' | 'ios' | 'installed' | 'none'

/** Running from the home screen already (display-mode standalone, or iOS's own flag). */
export function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  )
}

/**
 * iOS Safari by its user agent: an iPhone/iPod/iPad (iPadOS reports itself as
 * a Mac with touch), WebKit, and not another browser's shell (CriOS, FxiOS,
 * EdgiOS...), which cannot add to the home screen on older iOS.
 */
export function isIosSafari(ua: string, maxTouchPoints: number): boolean {
  const ios = /iPhone|iPod|iPad/.test(ua) || (/Macintosh/.test(ua) && maxTouchPoints > 1)
  return ios && /WebKit/.test(ua) && !/CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(ua)
}

export function installOffer(): InstallOffer {
  if (installed || isStandalone()) return 'installed'
  if (deferred) return 'prompt'
  if (isIosSafari(navigator.userAgent, navigator.maxTouchPoints)) return 'ios'
  return 'none'
}

/** After a member's click: the browser's own install dialog. */
export async function promptInstall(): Promise<void> {
  const event = deferred
  if (!event) return
  deferred = null
  await event.prompt()
  const { outcome } = await event.userChoice
  if (outcome === 'accepted') installed = true
  changed()
}

export function onInstallChange(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
