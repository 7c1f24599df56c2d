import { lazy, type ReactNode, Suspense } from 'react'
import { useSession } from '../../data/session.ts'
import { useSettings } from '../../data/useSettings.ts'
import { rootClasses } from '../../route-name.ts'
import { lookClasses, useLook } from '../../theme/site.ts'
import { useIsClient } from '../../ui/use-client.ts'
import { needsEntryWarning } from './entry-warning-rule.ts'
import { DEV_TEMPLATE_KEY, ENTRY_CONFIRMED_KEY, useFlag } from './flags.ts'

/** Loaded only on a niche site (adult content): the general site never downloads it. */
const EntryWarning = lazy(() =>
  import('./EntryWarning.tsx').then((mod) => ({ default: mod.EntryWarning })),
)

/**
 * The site's template (spec §2 root class): the operator's choice for this
 * host (settings), after the developer panel's preview (this device only).
 */
function useTemplate(site: string): string {
  const preview = useFlag(DEV_TEMPLATE_KEY)
  return preview ?? site
}

/**
 * The root element every page renders in, with and without the router (the
 * app's root route and the landers' light entry, app/lander.tsx): the spec §2
 * root classes (template, logged-in, the page's name) and the look's classes,
 * and the site-entry warning on a niche site.
 */
export function SiteFrame({ page, children }: { page: string; children: ReactNode }) {
  const { user } = useSession()
  const settings = useSettings()
  // Spec §2/§9: the site's template (default classic) and niche, as the
  // server also wrote them on <html> for the first paint (app/theme).
  const look = useLook()
  const template = useTemplate(look.template)
  const entryConfirmed = useFlag(ENTRY_CONFIRMED_KEY) === '1'
  // A dialog over the page (a portal): not part of a prerendered page's HTML,
  // it opens once the page is hydrated.
  const client = useIsClient()
  return (
    <div
      id="app-root"
      className={`${rootClasses(template, user !== null, page)} ${lookClasses(look)}`}
    >
      {children}
      {client && !entryConfirmed && needsEntryWarning(settings?.niche) && (
        <Suspense fallback={null}>
          <EntryWarning />
        </Suspense>
      )}
    </div>
  )
}
