import { m } from '../../../../../../messages/paraglide/messages.js'
import { type Costs, costRows } from './site-fields.ts'

/**
 * Spec §3 minimum_message_costs: one row per country with the price of a
 * message and its currency, and an empty row to add one. Each box has its
 * own label (the column and the row), for screen readers and narrow screens.
 */
export function CostsFieldset({
  costs,
  own,
  onReset,
}: {
  costs: Costs
  own: boolean
  onReset: () => void
}) {
  const rows = costRows(costs)
  return (
    <fieldset className="site-costs" aria-describedby="site-costs-hint">
      <legend>
        <code>minimum_message_costs</code>
        {own && <span className="console-tag">{m.op_site_set_here()}</span>}
      </legend>
      <p id="site-costs-hint">{m.op_site_costs_hint()}</p>
      {rows.map((row, i) => {
        const n = { n: String(i + 1) }
        return (
          <div key={row.country || '+'} className="site-costs__row">
            <label>
              {m.op_site_costs_country()}
              <span className="visually-hidden"> · {m.op_site_costs_row(n)}</span>
              <input
                name={`cost_country_${i}`}
                defaultValue={row.country}
                maxLength={2}
                pattern="[A-Za-z]{2}"
                autoComplete="off"
              />
            </label>
            <label>
              {m.op_site_costs_amount()}
              <span className="visually-hidden"> · {m.op_site_costs_row(n)}</span>
              <input
                name={`cost_amount_${i}`}
                type="number"
                min={0}
                step="0.01"
                inputMode="decimal"
                defaultValue={String(row.costs)}
              />
            </label>
            <label>
              {m.op_site_costs_currency()}
              <span className="visually-hidden"> · {m.op_site_costs_row(n)}</span>
              <input
                name={`cost_currency_${i}`}
                defaultValue={row.currency}
                maxLength={3}
                pattern="[A-Za-z]{3}"
                autoComplete="off"
              />
            </label>
          </div>
        )
      })}
      {own && (
        <button type="button" className="button button--secondary" onClick={onReset}>
          {m.op_site_reset({ field: 'minimum_message_costs' })}
        </button>
      )}
    </fieldset>
  )
}
