import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireLogin } from '../data/guard.ts'
import { OfflineBanner } from '../ui/OfflineBanner.tsx'
import { TopNav } from '../ui/TopNav.tsx'

/**
 * Spec §2 chat layout: one conversation filling the screen below the
 * navigation. Every chat page needs a login (spec §2), so the guard is here.
 */
export const Route = createFileRoute('/_chat')({
  beforeLoad: requireLogin,
  component: ChatLayout,
})

function ChatLayout() {
  return (
    <div className="layout-chat">
      <TopNav />
      <OfflineBanner />
      <Outlet />
    </div>
  )
}
