// /pricing and /premium (spec §2, public): the packages and the price of a
// message per country before anyone signs up, from the same data as
// /credits. A guest's country is the geo-IP one unless chosen here.
import { Link, useNavigate } from '@tanstack/react-router'
import { m } from '../../../messages/paraglide/messages.js'
import { usePackages } from '../../data/usePayments.ts'
import { useSettings } from '../../data/useSettings.ts'
import { bestValue, messageMoneyText } from './money.ts'
import { PackageList } from './PackageList.tsx'
import './credits.css'

export function PricingPage({ title, country }: { title: string; country: string | undefined }) {
  const settings = useSettings()
  const navigate = useNavigate()
  const chosen = country ?? settings?.geoip_selected_country ?? settings?.geoip_country ?? undefined
  const packages = usePackages(chosen)
  // The "from" price: the best package on offer (the one rule, credit-value.ts).
  const best = packages ? bestValue(packages) : null
  return (
    <main className="page">
      <h1>{title}</h1>
      <p>{m.credits_pricing_intro()}</p>
      <label className="field pricing-country">
        <span>{m.credits_country()}</span>
        <select
          value={packages?.country ?? chosen ?? ''}
          onChange={(e) => void navigate({ to: '.', search: { country: e.target.value } })}
        >
          {settings?.countries.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      {packages && best && (
        <p data-message-price={packages.currency}>
          <strong>
            {m.credits_message_from({ price: messageMoneyText(best, packages.message_cost) })}
          </strong>
        </p>
      )}
      {packages && <PackageList data={packages} />}
      <p>
        <Link className="button" to="/signup">
          {m.credits_signup()}
        </Link>
      </p>
    </main>
  )
}
