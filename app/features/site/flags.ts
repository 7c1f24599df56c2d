// Flags this device remembers for the root layout (localStorage), with a tiny
// store so the root re-renders when the developer panel changes one.
import { useSyncExternalStore } from 'react'

/** Spec §2: the visitor confirmed the site-entry warning (18+) once. */
export const ENTRY_CONFIRMED_KEY = 'amora-entry-confirmed'
/** Spec §2: the developer panel's open flag (set by `?dev=1`, cleared by `?dev=0`). */
export const DEV_PANEL_KEY = 'amora-dev-panel'
/** The developer panel's design version preview (client-side only). */
export const DEV_TEMPLATE_KEY = 'amora-dev-template'

const listeners = new Set<() => void>()

function read(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null // storage blocked: nothing remembered
  }
}

export function setFlag(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
  } catch {
    // Storage blocked: the choice lasts until the page is left.
  }
  for (const l of listeners) l()
}

export function useFlag(key: string): string | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => read(key),
    // The server render knows no device: nothing remembered (hydration then reads the device).
    () => null,
  )
}

/** `?dev=1` opens the developer panel on this device, `?dev=0` closes it. */
export function captureDevFlag(): void {
  const dev = new URLSearchParams(window.location.search).get('dev')
  if (dev === '1') setFlag(DEV_PANEL_KEY, '1')
  if (dev === '0') setFlag(DEV_PANEL_KEY, null)
}
