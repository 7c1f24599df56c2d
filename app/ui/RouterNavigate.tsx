import { useLocation, useRouter } from '@tanstack/react-router'
import { type ReactNode, useCallback, useMemo } from 'react'
import { AppNavigate } from './AppLink.tsx'

/** Inside the app, AppLink and useAppNavigate navigate with the router (no page load). */
export function RouterNavigate({ children }: { children: ReactNode }) {
  const router = useRouter()
  const path = useLocation({ select: (l) => l.pathname })
  const navigate = useCallback((href: string) => void router.navigate({ href }), [router])
  const value = useMemo(() => ({ navigate, path }), [navigate, path])
  return <AppNavigate.Provider value={value}>{children}</AppNavigate.Provider>
}
