import { createFileRoute, Outlet } from '@tanstack/react-router'
import { Footer } from '../ui/Footer.tsx'
import { OfflineBanner } from '../ui/OfflineBanner.tsx'
import { TopNav } from '../ui/TopNav.tsx'

/**
 * Spec §2 default layout: the site's navigation above the page. Pages that
 * need a login sit below the pathless `_member` guard inside it. The footer
 * (information pages, imprint, language) closes every page of this layout.
 */
export const Route = createFileRoute('/_default')({
  component: DefaultLayout,
})

function DefaultLayout() {
  return (
    <>
      <TopNav />
      <OfflineBanner />
      <Outlet />
      <Footer />
    </>
  )
}
