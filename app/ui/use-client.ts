import { useSyncExternalStore } from 'react'

const never = () => () => {}

/**
 * False in the server render and while a prerendered page hydrates, true in
 * every other render: for what only exists in a browser (portals into
 * #teleports), so the first client render matches the server's HTML.
 */
export const useIsClient = (): boolean =>
  useSyncExternalStore(
    never,
    () => true,
    () => false,
  )
