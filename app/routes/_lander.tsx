import { createFileRoute, Outlet } from '@tanstack/react-router'

/**
 * Spec §2 lander layout: a sales page for visitors arriving from ads or
 * affiliates, without the members' navigation. A first visit gets the same
 * pages from the landers' light entry (app/lander.tsx), without the router.
 */
export const Route = createFileRoute('/_lander')({
  component: LanderLayout,
})

function LanderLayout() {
  return (
    <div className="layout-lander">
      <Outlet />
    </div>
  )
}
