import { createFileRoute, Outlet } from '@tanstack/react-router'
import { OfflineBanner } from '../ui/OfflineBanner.tsx'

/**
 * Spec §2 empty layout: the page alone, without the site's navigation
 * (match finder, sign-up matches, member landing pages, some landers).
 */
export const Route = createFileRoute('/_empty')({
  component: EmptyLayout,
})

function EmptyLayout() {
  return (
    <div className="layout-empty">
      <OfflineBanner />
      <Outlet />
    </div>
  )
}
