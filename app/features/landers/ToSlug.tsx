import { useEffect } from 'react'
import { isSlugLocale, type SlugPage, slugFor } from '../../../api/contract/rules/slugs.ts'
import { getLocale } from '../../../messages/paraglide/runtime.js'
import { useSettings } from '../../data/useSettings.ts'

/**
 * A bare lander or member landing path: the server answers it with a 301 to
 * the localized slug; this does the same when the service worker served the
 * shell from its cache without asking the server.
 */
export function ToSlug({ base, page }: { base: string; page: SlugPage }) {
  const settings = useSettings()
  useEffect(() => {
    if (!settings) return
    const locale = getLocale()
    const slug = slugFor(page, isSlugLocale(locale) ? locale : 'en', settings.niche)
    window.location.replace(`${base}/${slug}${window.location.search}`)
  }, [settings, base, page])
  return null
}
