// Spec §9 constants of the root layout, in one place: the components below
// apply them (inline), so a test that pins these pins what members see.
import { TOAST_MS } from './toasts.ts'

/** The navigation loading bar. */
export const LOADING_BAR = {
  /** How long the bar takes to crawl towards the end while a page loads. */
  durationMs: 2000,
  /** Navigations quicker than this show no bar at all. */
  throttleMs: 200,
  /** The full bar stays this long after loading ends, then fades. */
  hideDelayMs: 500,
  /** After fading, the bar goes back to empty this much later. */
  resetDelayMs: 400,
  heightPx: 3,
} as const

export const TOASTS = {
  durationMs: TOAST_MS,
  position: 'top-end',
  maxWidthPx: 350,
} as const

/** Dialogs stack above the page, the nav and the loading bar's page content. */
export const MODAL_Z_INDEX = 1055

/** Dialogs and toasts render into this element (app/index.html), outside #root. */
export const TELEPORTS_ID = 'teleports'

export const teleports = (): HTMLElement => document.getElementById(TELEPORTS_ID) ?? document.body
