import { createFileRoute, notFound } from '@tanstack/react-router'
import { LikesPage } from './-components/LikesPage.tsx'
import { isLikesType } from './-components/likes-type.ts'

/** Spec §2: /likes/{type}, type `received`, `given` or `visitors` (docs/live.md); anything else is not found. */
export const Route = createFileRoute('/_default/_member/likes/$type')({
  beforeLoad: async (ctx) => {
    if (!isLikesType(ctx.params.type)) throw notFound()
  },
  component: LikesTypePage,
})

function LikesTypePage() {
  const { type } = Route.useParams()
  return isLikesType(type) ? <LikesPage type={type} /> : null
}
