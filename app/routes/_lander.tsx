import { createFileRoute, Outlet } from '@tanstack/react-router'

/**
 * Spec §2 lander layout: a sales page for visitors arriving from ads or
 * affiliates, without the members' navigation.
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
