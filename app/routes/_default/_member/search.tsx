import { createFileRoute, redirect } from '@tanstack/react-router'

/** Spec §2: /search is an alias of /members. */
export const Route = createFileRoute('/_default/_member/search')({
  beforeLoad: ({ search }) => {
    throw redirect({ to: '/members', search })
  },
})
