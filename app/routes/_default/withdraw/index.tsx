// /withdraw (public): the withdrawal function (CRD Art. 11a), linked as
// "Withdraw from contract here" from the footer of every page and from the
// member's credits history and transaction pages. Signed in, the member picks
// a purchase, confirms, and gets the acknowledgement by mail; without a
// session, the e-mail address and order number get a confirmation link
// mailed to the order's address (?token= opens its confirmation here).
import { createFileRoute } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import type { Purchase } from '../../../../api/contract/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { useSession } from '../../../data/session.ts'
import { worker } from '../../../data/worker.ts'
import { money } from '../../../features/credits/money.ts'
import '../../../features/credits/credits.css'
import { GuestWithdrawal } from './-components/GuestWithdrawal.tsx'
import { WithdrawalState } from './-components/WithdrawalState.tsx'
import { WithdrawConfirm } from './-components/WithdrawConfirm.tsx'

type WithdrawSearch = { token?: string; order?: string }

export const Route = createFileRoute('/_default/withdraw/')({
  validateSearch: (s: Record<string, unknown>): WithdrawSearch => ({
    ...(typeof s.token === 'string' ? { token: s.token } : {}),
    ...(typeof s.order === 'string' ? { order: s.order } : {}),
  }),
  component: Withdraw,
})

function Withdraw() {
  const { token, order } = Route.useSearch()
  const { user, known } = useSession()
  return (
    <main className="page page--narrow withdraw">
      <h1>{m.withdraw_title()}</h1>
      <p>{m.withdraw_intro()}</p>
      {token ? <ByLink token={token} /> : known && user && <MyPurchases preselect={order} />}
      {known && !user && <GuestWithdrawal />}
    </main>
  )
}

/** The purchase of a mailed confirmation link, to confirm. */
function ByLink({ token }: { token: string }) {
  const [purchase, setPurchase] = useState<Purchase | null | undefined>(undefined)
  useEffect(() => {
    void worker()
      .withdrawalLinkPurchase(token)
      .then((res) => setPurchase(res.ok ? res.value.purchase : null))
  }, [token])
  if (purchase === undefined) return <p aria-busy="true" />
  if (purchase === null) return <p role="alert">{m.withdraw_link_invalid()}</p>
  if (!purchase.withdrawable) return <WithdrawalState purchase={purchase} />
  return (
    <WithdrawConfirm
      purchase={purchase}
      confirm={() => worker().withdrawalConfirm(token)}
      onCancel={undefined}
    />
  )
}

/** The signed-in member's purchases: each open one can be withdrawn from, with a confirmation step. */
function MyPurchases({ preselect }: { preselect: string | undefined }) {
  const [purchases, setPurchases] = useState<Purchase[] | null | undefined>(undefined)
  const [chosen, setChosen] = useState<string | undefined>(preselect)
  useEffect(() => {
    void worker()
      .purchases()
      .then((res) => setPurchases(res.ok ? res.value.purchases : null))
  }, [])
  if (purchases === undefined) return <p aria-busy="true" />
  if (purchases === null) return <p role="alert">{m.withdraw_error()}</p>
  const picked = purchases.find((p) => p.id === chosen && p.withdrawable)
  if (picked)
    return (
      <WithdrawConfirm
        purchase={picked}
        confirm={() => worker().withdraw(picked.id)}
        onCancel={() => setChosen(undefined)}
      />
    )
  return (
    <section aria-labelledby="withdraw-purchases">
      <h2 id="withdraw-purchases">{m.withdraw_list_title()}</h2>
      {purchases.length === 0 && <p>{m.withdraw_none()}</p>}
      <ul className="withdraw__list">
        {purchases.map((p) => (
          <li key={p.id} data-order={p.id}>
            <p>
              {m.withdraw_purchase({
                credits: p.credits,
                amount: money(p.amount, p.currency),
                order: p.id,
              })}
            </p>
            {p.withdrawable ? (
              <button type="button" className="button" onClick={() => setChosen(p.id)}>
                {m.footer_withdraw()}
              </button>
            ) : (
              <WithdrawalState purchase={p} />
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
