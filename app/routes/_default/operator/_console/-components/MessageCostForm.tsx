import type { FormEvent } from 'react'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { type CallResult, call } from '../../../../../data/console-client.ts'

/** The credits one message costs, server-wide (spec §1). */
export function MessageCostForm({
  credits,
  onDone,
}: {
  credits: number
  onDone: (r: CallResult<unknown>) => void
}) {
  async function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const value = Number(new FormData(e.currentTarget).get('credits'))
    onDone(await call('operatorMessageCost', { body: { credits: value } }))
  }

  return (
    <>
      <h2>{m.op_site_cost_title()}</h2>
      <form className="site-scope" onSubmit={(e) => void save(e)}>
        <label className="site-form__field">
          {m.op_site_cost_label()}
          <input
            name="credits"
            type="number"
            min={0}
            max={10000}
            required
            defaultValue={credits}
            key={credits}
          />
        </label>
        <button type="submit" className="button">
          {m.op_site_save()}
        </button>
      </form>
    </>
  )
}
