import { useState } from 'react'
import type { Gift } from '../../../api/contract/index.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { worker } from '../../data/worker.ts'
import { CreditPrice } from '../credits/CreditPrice.tsx'
import { giftName } from './gift-name.ts'
import './gifts.css'

/**
 * The gift button of a chat's composer: it opens the site's catalogue, each
 * gift with its price in credits and money (CreditPrice); choosing one sends
 * it through the outbox (pending at once, offline too, charged once).
 */
export function GiftPicker({ conversation, onSent }: { conversation: number; onSent: () => void }) {
  const [gifts, setGifts] = useState<Gift[] | null>(null)
  const [open, setOpen] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function toggle() {
    setOpen(!open)
    if (gifts !== null) return
    const res = await worker().gifts()
    if (res.ok) setGifts(res.value.gifts)
    else setError(m.error_generic())
  }

  async function give(gift: Gift) {
    const res = await worker().sendGift(conversation, gift)
    if (!res.ok) {
      setError(m.error_generic())
      return
    }
    setOpen(false)
    onSent()
  }

  return (
    <div className="gift-picker">
      <button
        type="button"
        className="button button--quiet"
        aria-expanded={open}
        aria-controls={`gift-list-${conversation}`}
        onClick={() => void toggle()}
      >
        {m.chat_gift_open()}
      </button>
      {open && (
        <ul
          id={`gift-list-${conversation}`}
          className="gift-picker__list"
          aria-label={m.chat_gift_list()}
        >
          {gifts?.map((g) => (
            <li key={g.slug}>
              <button
                type="button"
                className="gift-picker__gift"
                data-gift={g.slug}
                onClick={() => void give(g)}
              >
                <span className="gift-picker__icon" aria-hidden="true">
                  {g.icon}
                </span>
                <span className="gift-picker__name">{giftName(g)}</span>
                <CreditPrice className="gift-picker__price" credits={g.credits} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="form__error">
          {error}
        </p>
      )}
    </div>
  )
}

/** A gift in the conversation: its icon large, and who gave what. */
export function GiftBubble({ gift, mine }: { gift: Gift; mine: boolean }) {
  const name = giftName(gift)
  return (
    <p className="gift-bubble" data-gift-message={gift.slug}>
      <span className="gift-bubble__icon" aria-hidden="true">
        {gift.icon}
      </span>
      <span>{mine ? m.chat_gift_sent({ gift: name }) : m.chat_gift_received({ gift: name })}</span>
    </p>
  )
}
