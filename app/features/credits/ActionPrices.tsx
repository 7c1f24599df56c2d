import { m } from '../../../messages/paraglide/messages.js'
import { useCredits } from '../../data/useMessages.ts'
import { useSettings } from '../../data/useSettings.ts'
import { CreditPrice } from './CreditPrice.tsx'
import './credits.css'

/**
 * Every paid action with its price in credits and in money, on /credits: a
 * member sees what they buy before they buy credits (CPC key principles on
 * virtual currencies, 2025). The prices are the site's (operator settings).
 */
export function ActionPrices() {
  const settings = useSettings()
  const message = useCredits()?.message_cost
  if (!settings || message === undefined) return null
  const rows: [string, () => string, number][] = [
    ['message', m.credits_action_message, message],
    ['photo', m.credits_action_photo, settings.photo_message_credits],
    ['voice', m.credits_action_voice, settings.voice_message_credits],
    ['unlock', m.credits_action_unlock, settings.private_photo_credits],
  ]
  return (
    <section aria-labelledby="action-prices" className="action-prices">
      <h2 id="action-prices">{m.credits_buy_title()}</h2>
      <dl>
        {rows.map(([action, label, credits]) => (
          <div key={action} data-action={action}>
            <dt>{label()}</dt>
            <dd>
              <CreditPrice credits={credits} />
            </dd>
          </div>
        ))}
      </dl>
      <p className="action-prices__note">{m.credits_buy_note()}</p>
    </section>
  )
}
