// What a prerendered page was rendered with (api/site/prerender.ts writes it
// into the page as JSON, app/entry-server.tsx renders with it): the locale and
// the store values a guest's first paint shows (site settings, imprint). The
// first client render reads the same values, so hydration matches the HTML;
// the worker's own copy replaces them once it answers.
import type {
  CompanyInfo,
  PackagesResponse,
  Profile,
  ProfileResponse,
  Settings,
} from '../../api/contract/index.ts'

/** Id of the `<script type="application/json">` that carries the seed (never executed: CSP). */
export const PAGE_SEED_ID = 'page-seed'

export interface PageSeed {
  locale: string
  kv: { settings?: Settings; companyInfo?: CompanyInfo; packages?: PackagesResponse }
  /** On a profile page: the profile as GET /api/profile.php answered the guest. */
  profile?: ProfileResponse['profile']
  /** On the home: the guest showcase as GET /api/showcase.php answered the guest. */
  showcase?: Profile[]
}

let seed: PageSeed | null = null

/** The seed of this page: set by the server render, or by the client before hydrating. */
export const pageSeed = (): PageSeed | null => seed

export function setPageSeed(next: PageSeed | null): void {
  seed = next
}

/** The seed the server wrote into this page; null for the plain shell (members, the service worker's copy). */
export function readPageSeed(doc: Document = document): PageSeed | null {
  const text = doc.getElementById(PAGE_SEED_ID)?.textContent
  if (!text) return null
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null) return null
    const { locale, kv, profile, showcase } = value as Partial<PageSeed>
    if (typeof locale !== 'string' || typeof kv !== 'object' || kv === null) return null
    return {
      locale,
      kv,
      ...(profile ? { profile } : {}),
      ...(Array.isArray(showcase) ? { showcase } : {}),
    }
  } catch {
    return null
  }
}
