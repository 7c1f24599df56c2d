// How we order people (DSA Art. 27, docs/search.md "How we order people"):
// the page /pages/ranking is linked from the site footer and from the search
// filters, and its text is written in each of the seven languages, naming the
// search's own controls ("Online first", "Verified photos only") as the
// filters label them in that language. Rendered to markup, data hooks stubbed.
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import type { CompanyInfo } from '../../../../../../api/contract/index.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { locales } from '../../../../../../messages/paraglide/runtime.js'
import type { SearchPageRow } from '../../../../../data/worker.ts'

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children }: { to: string; children: unknown }) => (
    <a href={to}>{children as string}</a>
  ),
}))
vi.mock('../../../../../data/useCompanyInfo.ts', () => ({
  useCompanyInfo: () => null as CompanyInfo | null,
}))
vi.mock('../../../../../theme/site.ts', () => ({
  useLook: () => ({ template: 'classic', niche: 1, flags: { footer_copyright: true } }),
}))
vi.mock('../../../../../ui/LanguageSwitcher.tsx', () => ({ LanguageSwitcher: () => null }))

const { Footer } = await import('../../../../../ui/Footer.tsx')
const { Filters } = await import('./Filters.tsx')

const PAGE: SearchPageRow = {
  key: 'k',
  page: 1,
  ids: [],
  numResults: 0,
  filters: {
    gender: 'female',
    country: 'NL',
    countryregion: null,
    min_age: 18,
    max_age: 99,
    verified: false,
  },
  filterOptions: {
    gender: ['female', 'male'],
    min_age: 18,
    max_age: 99,
    country: [],
    countryregion: [],
  },
  fetchedAt: 0,
}

describe('the ranking page (how we order people)', () => {
  it('is linked from the site footer', () => {
    expect(renderToStaticMarkup(<Footer />)).toContain('href="/pages/ranking"')
  })

  it('is linked from the search filters', () => {
    const html = renderToStaticMarkup(
      <Filters page={PAGE} onlineFirst={false} regionData={undefined} onSearch={() => {}} />,
    )
    expect(html).toContain('href="/pages/ranking"')
  })

  it('is written in all seven languages, naming the filters as they are labelled', () => {
    expect(locales).toHaveLength(7)
    const english = m.pages_ranking_body({}, { locale: 'en' })
    for (const locale of locales) {
      const body = m.pages_ranking_body({}, { locale })
      if (locale !== 'en') {
        expect(body, locale).not.toBe(english)
        expect(m.pages_ranking_title({}, { locale }), locale).not.toBe(
          m.pages_ranking_title({}, { locale: 'en' }),
        )
      }
      // Each order and each way to change it, under its own heading.
      expect(
        body.split('\n\n').filter((b) => b.startsWith('## ')),
        locale,
      ).toHaveLength(6)
      const bare = (s: string) => s.replace(/[’']/g, "'")
      expect(bare(body), locale).toContain(bare(m.filter_online_first({}, { locale })))
      expect(bare(body), locale).toContain(bare(m.filter_verified({}, { locale })))
    }
  })
})
