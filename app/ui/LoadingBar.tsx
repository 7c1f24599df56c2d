import { useRouterState } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { LOADING_BAR } from './root-constants.ts'

type Phase = 'idle' | 'loading' | 'done' | 'fading'

/**
 * Spec §9 loading bar (LOADING_BAR): after the throttle it crawls towards the
 * end over the duration; when loading ends it fills, stays for the hide
 * delay, fades, and is reset to empty after the reset delay.
 */
export function LoadingBar() {
  const loading = useRouterState({ select: (s) => s.status === 'pending' || s.isLoading })
  const [phase, setPhase] = useState<Phase>('idle')

  useEffect(() => {
    if (loading) {
      const t = setTimeout(() => setPhase('loading'), LOADING_BAR.throttleMs)
      return () => clearTimeout(t)
    }
    if (phase === 'loading') setPhase('done')
    if (phase === 'done') {
      const t = setTimeout(() => setPhase('fading'), LOADING_BAR.hideDelayMs)
      return () => clearTimeout(t)
    }
    if (phase === 'fading') {
      const t = setTimeout(() => setPhase('idle'), LOADING_BAR.resetDelayMs)
      return () => clearTimeout(t)
    }
  }, [loading, phase])

  const scale = phase === 'loading' ? 0.9 : phase === 'idle' ? 0 : 1
  const visible = phase === 'loading' || phase === 'done'
  return (
    <div
      className={`loading-bar${visible ? ' loading-bar--active' : ''}`}
      role="progressbar"
      aria-hidden={!visible}
      aria-busy={visible}
      style={{
        height: LOADING_BAR.heightPx,
        transform: `scaleX(${scale})`,
        opacity: visible ? 1 : 0,
        transition:
          phase === 'idle'
            ? 'none'
            : `transform ${phase === 'loading' ? LOADING_BAR.durationMs : 200}ms ease-out, opacity ${LOADING_BAR.resetDelayMs}ms`,
      }}
    />
  )
}
