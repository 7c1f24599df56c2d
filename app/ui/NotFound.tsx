import { m } from '../../messages/paraglide/messages.js'
import { usePathname } from './AppLink.tsx'
import { ErrorPage } from './ErrorPage.tsx'

/**
 * Spec §8: 404 "Page Not Found: {path}" on the error page (spec §2). `chrome`
 * where no layout is around it (the root's not-found: an unknown path).
 */
export function NotFound({ chrome = false }: { chrome?: boolean }) {
  const pathname = usePathname()
  return <ErrorPage status={404} message={m.not_found_body({ path: pathname })} chrome={chrome} />
}
