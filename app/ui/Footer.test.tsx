// The footer follows the operator's footer-copyright flag (template_flags,
// spec §9): with it off the "©" notice goes and the imprint (company name,
// address, KvK, VAT) stays. Rendered to markup with the data hooks stubbed.
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { CompanyInfo, TemplateFlags } from '../../api/contract/index.ts'
import type { Look } from '../theme/site.ts'

const COMPANY: CompanyInfo = {
  name: 'Amora B.V.',
  address: 'Keizersgracht 1',
  kvk: '12345678',
  city: 'Amsterdam',
  country: 'NL',
  tradenames: ['Amora'],
  vat_numbers: ['NL000000000B01'],
  support_phone: '+31 20 000 0000',
  delete_discount: 0,
}

const ALL_ON: TemplateFlags = {
  navigation: true,
  chat: true,
  likes: true,
  notifications: true,
  footer_copyright: true,
}
let look: Look = { template: 'classic', niche: 1, flags: ALL_ON }

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children }: { to: string; children: unknown }) => (
    <a href={to}>{children as string}</a>
  ),
}))
vi.mock('../data/useCompanyInfo.ts', () => ({ useCompanyInfo: () => COMPANY }))
vi.mock('../theme/site.ts', () => ({ useLook: () => look }))
vi.mock('./LanguageSwitcher.tsx', () => ({ LanguageSwitcher: () => null }))

const { Footer } = await import('./Footer.tsx')

describe('the footer and the footer-copyright flag', () => {
  beforeEach(() => {
    look = { template: 'classic', niche: 1, flags: ALL_ON }
  })

  it('shows "© year company" when the flag is on (the default)', () => {
    const html = renderToStaticMarkup(<Footer />)
    expect(html).toContain(`© ${new Date().getFullYear()} Amora B.V.`)
  })

  it('drops the © notice when the operator turned the flag off, keeping the imprint', () => {
    look = { ...look, flags: { ...ALL_ON, footer_copyright: false } }
    const html = renderToStaticMarkup(<Footer />)
    expect(html).not.toContain('©')
    expect(html).toContain('Amora B.V.')
    expect(html).toContain('Keizersgracht 1')
    expect(html).toContain('12345678')
    expect(html).toContain('NL000000000B01')
  })
})
