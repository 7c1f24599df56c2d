import { type FormEvent, useId, useState } from 'react'
import { m } from '../../../../../messages/paraglide/messages.js'
import { worker } from '../../../../data/worker.ts'

/**
 * Without a session: the e-mail address and the order number; a link to
 * confirm goes to the order's address. The page says the same whatever the
 * two match (the API never tells).
 */
export function GuestWithdrawal() {
  const id = useId()
  const [state, setState] = useState<'idle' | 'busy' | 'sent' | 'error'>('idle')
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setState('busy')
    const res = await worker().withdrawalLink({
      email: String(form.get('email')),
      order: String(form.get('order')).trim(),
    })
    setState(res.ok ? 'sent' : 'error')
  }
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{m.withdraw_guest_title()}</h2>
      <p>{m.withdraw_guest_intro()}</p>
      {state === 'sent' ? (
        <p role="status">{m.withdraw_link_sent()}</p>
      ) : (
        <form className="form" onSubmit={(e) => void submit(e)} aria-busy={state === 'busy'}>
          {state === 'error' && (
            <p className="form__error" role="alert">
              {m.withdraw_error()}
            </p>
          )}
          <div className="field">
            <label htmlFor={`${id}-email`}>{m.withdraw_email_label()}</label>
            <input id={`${id}-email`} name="email" type="email" autoComplete="email" required />
          </div>
          <div className="field">
            <label htmlFor={`${id}-order`}>{m.withdraw_order_label()}</label>
            <input id={`${id}-order`} name="order" type="text" autoComplete="off" required />
          </div>
          <button type="submit" className="button" disabled={state === 'busy'}>
            {m.withdraw_send_link()}
          </button>
        </form>
      )}
    </section>
  )
}
