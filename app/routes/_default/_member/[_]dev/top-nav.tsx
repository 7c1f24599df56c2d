// /_dev/top-nav: the navigation in each of its states, one above the other.
import { createFileRoute } from '@tanstack/react-router'
import { m } from '../../../../../messages/paraglide/messages.js'
import { TopNav } from '../../../../ui/TopNav.tsx'

export const Route = createFileRoute('/_default/_member/_dev/top-nav')({ component: DevTopNav })

function DevTopNav() {
  return (
    <main className="page">
      <h1>{m.dev_top_nav_title()}</h1>
      <h2>{m.dev_top_nav_guest()}</h2>
      <TopNav preview="guest" />
      <h2>{m.dev_top_nav_member()}</h2>
      <TopNav preview="member" />
    </main>
  )
}
