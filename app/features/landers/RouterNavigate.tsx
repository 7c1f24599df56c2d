import { useRouter } from '@tanstack/react-router'
import { type ReactNode, useCallback } from 'react'
import { AppNavigate } from './AppLink.tsx'

/** Inside the app, a lander's links navigate with the router (no page load). */
export function RouterNavigate({ children }: { children: ReactNode }) {
  const router = useRouter()
  const navigate = useCallback((href: string) => void router.navigate({ href }), [router])
  return <AppNavigate.Provider value={navigate}>{children}</AppNavigate.Provider>
}
