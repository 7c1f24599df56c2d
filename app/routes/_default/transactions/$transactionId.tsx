// /transactions/{transactionId} (spec §2, public): where the payment provider
// sends the member back. It shows the order's state as the server knows it
// and asks again until it is final; it never grants anything itself (only
// the provider's webhook does).
import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { useTransaction } from '../../../data/usePayments.ts'
import { money } from '../../../features/credits/money.ts'
import '../../../features/credits/credits.css'

export const Route = createFileRoute('/_default/transactions/$transactionId')({
  component: TransactionPage,
})

function TransactionPage() {
  const { transactionId } = Route.useParams()
  const t = useTransaction(transactionId)
  if (t === null)
    return (
      <main className="page page--narrow">
        <h1>{m.credits_tx_title()}</h1>
        <p role="alert">{m.credits_tx_not_found()}</p>
      </main>
    )
  const text =
    t === undefined
      ? m.credits_tx_pending()
      : {
          pending: () => m.credits_tx_pending(),
          paid: () => m.credits_tx_paid({ credits: t.credits_added }),
          failed: () => m.credits_tx_failed(),
          canceled: () => m.credits_tx_canceled(),
          expired: () => m.credits_tx_expired(),
          refunded: () => m.credits_tx_refunded(),
          charged_back: () => m.credits_tx_charged_back(),
        }[t.status]()
  return (
    <main className="page page--narrow">
      <h1>{m.credits_tx_title()}</h1>
      <p
        className="transaction-status"
        role="status"
        data-status={t?.status ?? 'loading'}
        aria-busy={!t || t.status === 'pending'}
      >
        {text}
      </p>
      {t && <p>{m.credits_tx_amount({ amount: money(t.amount, t.currency) })}</p>}
      <p>
        <Link to="/credits">{m.credits_tx_back()}</Link>
      </p>
      {t?.status === 'paid' && (
        <p>
          <Link to="/chats">{m.credits_tx_chats()}</Link>
        </p>
      )}
      {t?.status === 'paid' && (
        <p>
          <Link to="/withdraw" search={{ order: t.id }}>
            {m.footer_withdraw()}
          </Link>
        </p>
      )}
    </main>
  )
}
