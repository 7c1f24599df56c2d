import { m } from '../../../messages/paraglide/messages.js'
import { useCredits } from '../../data/useMessages.ts'
import { creditsMoneyText } from './money.ts'

/**
 * What a paid action costs the signed-in member: its credits and, beside
 * them, their money at the member's value of a credit (the one rule,
 * api/contract/rules/credit-value.ts). Every paid action shows its price
 * through this: a message, a photo, a voice message, an unlock, a gift.
 */
export function CreditPrice({ credits, className }: { credits: number; className?: string }) {
  const value = useCredits()?.credit_value
  const money = value ? creditsMoneyText(value, credits) : null
  return (
    <span className={className} data-credits-price={credits} data-money={money ?? undefined}>
      {money ? m.price_credits_money({ credits, money }) : m.price_credits({ credits })}
    </span>
  )
}
