import { m } from '../../messages/paraglide/messages.js'
import { useCompanyInfo } from '../data/useCompanyInfo.ts'
import { useLook } from '../theme/site.ts'
import { AppLink } from './AppLink.tsx'
import { LanguageSwitcher } from './LanguageSwitcher.tsx'

/**
 * The information pages (spec §2), in the footer of every default-layout
 * page. Typed as plain strings: some of these pages come with their own
 * routes; a path the build does not have yet shows the error page.
 */
const INFO_PAGES: { to: string; label: () => string }[] = [
  { to: '/pages/faq', label: m.footer_faq },
  { to: '/pricing', label: m.footer_pricing },
  { to: '/pages/service', label: m.footer_service },
  { to: '/complaints', label: m.footer_complaints },
  { to: '/pages/terms', label: m.footer_terms },
  { to: '/pages/privacy', label: m.footer_privacy },
  { to: '/pages/cookies', label: m.footer_cookies },
  { to: '/pages/return-policy', label: m.footer_return_policy },
  // The withdrawal function (CRD Art. 11a): on every page, for the whole period.
  { to: '/withdraw', label: m.footer_withdraw },
  { to: '/pages/ban', label: m.footer_ban },
  // How the search orders people (DSA Art. 27).
  { to: '/pages/ranking', label: m.footer_ranking },
]

export function Footer() {
  const company = useCompanyInfo()
  // The operator's footer-copyright flag (template_flags, spec §9) drops the
  // "© year" notice only: the company's name stays, as the imprint needs it.
  const { flags } = useLook()
  return (
    <footer className="site-footer">
      <nav aria-label={m.footer_label()}>
        <ul className="site-footer__links">
          {INFO_PAGES.map((p) => (
            <li key={p.to}>
              <AppLink href={p.to}>{p.label()}</AppLink>
            </li>
          ))}
        </ul>
      </nav>
      <LanguageSwitcher />
      {company && (
        <address className="site-footer__imprint" aria-label={m.footer_imprint()}>
          {/* The year of a page rendered on the server may turn over before it hydrates. */}
          <span className="site-footer__company" suppressHydrationWarning>
            {flags.footer_copyright
              ? `© ${new Date().getFullYear()} ${company.name}`
              : company.name}
          </span>
          {company.address && (
            <span>
              {[company.address, company.city, company.country].filter(Boolean).join(', ')}
            </span>
          )}
          {company.kvk && <span>{m.footer_kvk({ kvk: company.kvk })}</span>}
          {company.vat_numbers.length > 0 && (
            <span>{m.footer_vat({ vat: company.vat_numbers.join(', ') })}</span>
          )}
        </address>
      )}
    </footer>
  )
}
