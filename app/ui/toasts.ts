import { useSyncExternalStore } from 'react'

/** Spec §9: a toast shows for 5000 ms by default. */
export const TOAST_MS = 5_000

export interface Toast {
  id: number
  kind: 'info' | 'danger'
  title?: string
  body: string
}

let toasts: Toast[] = []
let nextId = 1
const listeners = new Set<() => void>()
const emit = () => {
  for (const l of listeners) l()
}

export function dismissToast(id: number) {
  toasts = toasts.filter((t) => t.id !== id)
  emit()
}

/** Spec §4: a toast appears, counts down, hides. */
export function showToast(toast: Omit<Toast, 'id'>, ms = TOAST_MS): number {
  const id = nextId++
  toasts = [...toasts, { ...toast, id }]
  emit()
  setTimeout(() => dismissToast(id), ms)
  return id
}

const NO_TOASTS: Toast[] = []

export const useToasts = () =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => toasts,
    () => NO_TOASTS,
  )
