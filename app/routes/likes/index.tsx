import { createFileRoute } from '@tanstack/react-router'
import { requireLogin } from '../../data/guard.ts'
import { LikesPage } from './-components/LikesPage.tsx'

/** Spec §2: /likes, the received likes by default. */
export const Route = createFileRoute('/likes/')({
  beforeLoad: requireLogin,
  component: () => <LikesPage type="received" />,
})
