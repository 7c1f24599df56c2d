import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireLogin } from '../../data/guard.ts'

/** Spec §2 auth "required" for the empty layout's member pages (/signup-matches). */
export const Route = createFileRoute('/_empty/_member')({
  beforeLoad: requireLogin,
  component: Outlet,
})
