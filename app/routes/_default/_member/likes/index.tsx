import { createFileRoute } from '@tanstack/react-router'
import { LikesPage } from './-components/LikesPage.tsx'

/** Spec §2: /likes, the received likes by default. */
export const Route = createFileRoute('/_default/_member/likes/')({
  component: () => <LikesPage type="received" />,
})
