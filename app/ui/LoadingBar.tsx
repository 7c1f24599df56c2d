import { useRouterState } from '@tanstack/react-router'
import { useEffect, useState } from 'react'

// Spec §9 loading bar: throttle 200 ms (quick navigations show nothing),
// hide delay 500 ms, height 3 px (styles.css).
const THROTTLE_MS = 200
const HIDE_DELAY_MS = 500

export function LoadingBar() {
  const loading = useRouterState({ select: (s) => s.status === 'pending' || s.isLoading })
  const [visible, setVisible] = useState(false)

  useEffect(() => {
    const t = setTimeout(() => setVisible(loading), loading ? THROTTLE_MS : HIDE_DELAY_MS)
    return () => clearTimeout(t)
  }, [loading])

  return (
    <div
      className={`loading-bar${visible ? ' loading-bar--active' : ''}`}
      role="progressbar"
      aria-hidden={!visible}
      aria-busy={visible}
    />
  )
}
