import { m } from '../../../messages/paraglide/messages.js'
import { useCredits } from '../../data/useMessages.ts'
import { messageMoneyText } from './money.ts'

/**
 * What one message costs the signed-in member, in credits and money, by the
 * one rule (api/contract/rules/credit-value.ts): the same text on the home
 * page, in the chat's composer and on /credits.
 */
export function MessagePrice({ className }: { className?: string }) {
  const credits = useCredits()
  if (!credits?.credit_value) return null
  const money = messageMoneyText(credits.credit_value, credits.message_cost)
  return (
    <p className={className} data-message-money={money}>
      {m.chat_cost_money({ cost: credits.message_cost, money })}
    </p>
  )
}
