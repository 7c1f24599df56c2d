import { useSyncExternalStore } from 'react'

/**
 * A phone-sized screen: narrower than 600 px, where the member grid has two
 * columns (app/styles.css .grid). Pages that lay out differently there (the
 * members search puts its filters behind a button) ask this, not CSS alone,
 * so that a control exists once in the page, not twice with one hidden.
 */
const NARROW = '(max-width: 599.98px)'

const subscribe = (cb: () => void) => {
  const query = window.matchMedia(NARROW)
  query.addEventListener('change', cb)
  return () => query.removeEventListener('change', cb)
}

export const useNarrow = () =>
  useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW).matches,
    // The server renders the wide layout; member pages render in the browser.
    () => false,
  )
