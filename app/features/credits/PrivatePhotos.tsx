// A member's private photos on their profile page, as another signed-in
// member sees them (docs/payments.md, "What credits buy"): each one they
// have not unlocked is a locked tile with its price in credits and money
// (the site's `private_photo_credits`, valued by the one rule of
// api/contract/rules/credit-value.ts) and a button to unlock it; each one
// they unlocked is the picture itself. Unlocking charges once: the server
// answers a second ask without a charge.
import { Lock } from 'lucide-react'
import { useEffect, useState } from 'react'
import type { Image } from '../../../api/contract/index.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { useCredits } from '../../data/useMessages.ts'
import { useSettings } from '../../data/useSettings.ts'
import { worker } from '../../data/worker.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { mediaUrl } from '../../ui/media.ts'
import { failureText } from '../account/forms/failure-text.ts'
import { messageMoneyText } from './money.ts'

export function PrivatePhotos({
  memberId,
  name,
  unlocked,
  locked,
}: {
  memberId: number
  name: string
  unlocked: readonly Image[]
  locked: readonly { id: number }[]
}) {
  const settings = useSettings()
  const credits = useCredits()
  const [busy, setBusy] = useState<number | null>(null)
  const [alert, setAlert] = useState<{ text: string; short: boolean } | null>(null)
  const anyLocked = locked.length > 0
  useEffect(() => {
    // The balance and the money value of a credit, for the price line.
    if (anyLocked) void worker().syncCredits()
  }, [anyLocked])
  if (unlocked.length === 0 && !anyLocked) return null
  const cost = settings?.private_photo_credits
  const value = credits?.credit_value
  // The money of `cost` credits by the rule a message's money uses.
  const money = cost && value ? messageMoneyText(value, cost) : null

  async function unlock(id: number) {
    setBusy(id)
    setAlert(null)
    const res = await worker().unlockPhoto(memberId, id)
    setBusy(null)
    if (res.ok) return
    const short = res.error.code === 'insufficient_credits'
    setAlert({ text: short ? m.private_photo_short() : failureText(res.error), short })
  }

  return (
    <section className="private-photos" aria-labelledby="private-photos-title">
      <h2 id="private-photos-title">{m.private_photos_title()}</h2>
      <ul className="photo-list">
        {unlocked.map((img) => (
          <li key={img.id}>
            <img src={mediaUrl(img.thumb_filename)} alt={m.private_photo_alt({ name })} />
          </li>
        ))}
        {cost !== undefined &&
          locked.map((p) => (
            <li key={p.id}>
              <LockedPhoto
                cost={cost}
                money={money}
                disabled={busy !== null}
                onUnlock={() => void unlock(p.id)}
              />
            </li>
          ))}
      </ul>
      {alert && (
        <p role="alert" className="form__error">
          {alert.text}
          {alert.short && (
            <>
              {' '}
              <AppLink href="/credits">{m.private_photo_buy()}</AppLink>
            </>
          )}
        </p>
      )}
    </section>
  )
}

/** A locked tile: named for what it is and its price, with the price in money and the unlock button. */
function LockedPhoto({
  cost,
  money,
  disabled,
  onUnlock,
}: {
  cost: number
  money: string | null
  disabled: boolean
  onUnlock: () => void
}) {
  return (
    <figure className="locked-photo" aria-label={m.private_photo_locked_label({ cost })}>
      <span className="locked-photo__tile" aria-hidden="true">
        <Lock className="icon" />
      </span>
      <figcaption className="locked-photo__price" data-private-price={cost}>
        {money ? m.private_photo_price_money({ cost, money }) : m.private_photo_price({ cost })}
      </figcaption>
      <button type="button" className="button" disabled={disabled} onClick={onUnlock}>
        {m.private_photo_unlock({ cost })}
      </button>
    </figure>
  )
}
