import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireLogin } from '../../data/guard.ts'

/**
 * Spec §2 auth "required", declared once: every page below this pathless
 * route fetches the user and, still logged out, goes to /login.
 */
export const Route = createFileRoute('/_default/_member')({
  beforeLoad: requireLogin,
  component: Outlet,
})
