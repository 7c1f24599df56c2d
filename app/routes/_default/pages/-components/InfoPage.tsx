import { Link } from '@tanstack/react-router'
import { m } from '../../../../../messages/paraglide/messages.js'
import { usePackages } from '../../../../data/usePayments.ts'
import { useSettings } from '../../../../data/useSettings.ts'
import { bestValue, messageMoneyText } from '../../../../features/credits/money.ts'

/**
 * An information page (spec §2 /pages/*): its text, then what every one of
 * them carries: the price of a message and the company's details (the spec
 * §3 company info: the imprint a European consumer site must show). The
 * details come from the stored settings, the same values as
 * GET /api/companyinfo.php, so the page also renders offline.
 */
export function InfoPage({ title, body }: { title: string; body: string }) {
  const settings = useSettings()
  return (
    <main className="page page--narrow info-page">
      <h1>{title}</h1>
      <Body text={body} />
      {settings && <Price settings={settings} />}
      {settings && <Imprint settings={settings} />}
      <nav aria-label={m.pages_nav_label()} className="info-page__nav">
        <Link to="/pages/faq">{m.pages_faq_title()}</Link>
        <Link to="/pages/terms">{m.pages_terms_title()}</Link>
        <Link to="/pages/privacy">{m.pages_privacy_title()}</Link>
        <Link to="/pages/cookies">{m.pages_cookies_title()}</Link>
        <Link to="/pages/return-policy">{m.pages_return_policy_title()}</Link>
        <Link to="/pages/service">{m.pages_service_title()}</Link>
        <Link to="/complaints">{m.pages_complaints_link()}</Link>
      </nav>
    </main>
  )
}

/** The text: "## " starts a heading, "- " lines make a list, other blocks are paragraphs. */
function Body({ text }: { text: string }) {
  return (
    <>
      {text.split('\n\n').map((block, i) => {
        const key = `${i}`
        if (block.startsWith('## ')) return <h2 key={key}>{block.slice(3)}</h2>
        if (block.startsWith('- '))
          return (
            <ul key={key}>
              {block.split('\n').map((line) => (
                <li key={line}>{line.replace(/^- /, '')}</li>
              ))}
            </ul>
          )
        return <p key={key}>{block}</p>
      })}
    </>
  )
}

type S = NonNullable<ReturnType<typeof useSettings>>

/** The "from" price of a message: the best package on offer (the one rule, credit-value.ts). */
function Price({ settings }: { settings: S }) {
  const packages = usePackages(
    settings.geoip_selected_country ?? settings.geoip_country ?? undefined,
  )
  const best = packages ? bestValue(packages) : null
  if (!packages || !best) return null
  const price = messageMoneyText(best, packages.message_cost)
  return (
    <section>
      <h2>{m.pages_price_title()}</h2>
      <p>
        {m.pages_price_text({ price })} <a href="/pricing">{m.pages_price_link()}</a>
      </p>
    </section>
  )
}

function Imprint({ settings: s }: { settings: S }) {
  return (
    <section className="imprint" aria-labelledby="imprint-title">
      <h2 id="imprint-title">{m.pages_imprint_title()}</h2>
      <dl>
        <dt>{s.company_name}</dt>
        <dd>
          {m.pages_imprint_address()}: {s.company_address}, {s.company_city},{' '}
          {s.countries.find((c) => c.id === s.company_country)?.name ?? s.company_country}
        </dd>
        <dt>{m.pages_imprint_kvk()}</dt>
        <dd data-testid="kvk">{s.company_kvk}</dd>
        <dt>{m.pages_imprint_vat()}</dt>
        <dd data-testid="vat">{s.company_vat_numbers.join(', ')}</dd>
        {s.company_tradenames.length > 0 && (
          <>
            <dt>{m.pages_imprint_tradenames()}</dt>
            <dd>{s.company_tradenames.join(', ')}</dd>
          </>
        )}
        <dt>{m.pages_imprint_phone()}</dt>
        <dd>
          <a href={`tel:${s.support_phone.replace(/[^+\d]/g, '')}`}>{s.support_phone}</a>
        </dd>
      </dl>
    </section>
  )
}
