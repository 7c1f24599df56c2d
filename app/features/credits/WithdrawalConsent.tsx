import { m } from '../../../messages/paraglide/messages.js'
import './credits.css'

/**
 * The checkout's box (CRD Art. 16(m)): the express consent to use the credits
 * at once and the acknowledgement that the right of withdrawal ends for the
 * credits used. Required: the form does not submit without it, and the order
 * API refuses an order without `withdrawal_consent`.
 */
export function WithdrawalConsent() {
  return (
    <label className="withdrawal-consent">
      <input type="checkbox" name="withdrawal_consent" required />
      <span>{m.credits_consent_label()}</span>
    </label>
  )
}
