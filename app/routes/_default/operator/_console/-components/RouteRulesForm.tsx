import type { FormEvent } from 'react'
import type { RouteRule } from '../../../../../../api/contract/operator/sites.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { type CallResult, call } from '../../../../../data/console-client.ts'

/**
 * The server's route rules (spec §2) as JSON; text that is not JSON is
 * refused here, naming the field, and the server checks every rule.
 */
export function RouteRulesForm({
  rules,
  onDone,
  onBadJson,
}: {
  rules: RouteRule[]
  onDone: (r: CallResult<unknown>) => void
  onBadJson: () => void
}) {
  async function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    // What the box holds goes as it is: the server checks every rule and names a bad one.
    let next: RouteRule[]
    try {
      next = JSON.parse(String(new FormData(e.currentTarget).get('rules') ?? '[]'))
    } catch {
      onBadJson()
      return
    }
    onDone(await call('operatorRouteRules', { body: { rules: next } }))
  }

  return (
    <>
      <h2>{m.op_site_rules_title()}</h2>
      <form className="site-form" onSubmit={(e) => void save(e)}>
        <label className="site-form__field" style={{ gridColumn: '1 / -1' }}>
          {m.op_site_rules_label()}
          <textarea
            name="rules"
            rows={6}
            defaultValue={JSON.stringify(rules, null, 2)}
            key={JSON.stringify(rules)}
          />
        </label>
        <div className="site-form__actions">
          <button type="submit" className="button">
            {m.op_site_save()}
          </button>
        </div>
      </form>
    </>
  )
}
