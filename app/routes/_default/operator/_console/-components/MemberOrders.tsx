import type { MemberOrderEntry } from '../../../../../../api/contract/operator/members.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { formatDateTime, formatMoney, formatNumber } from '../../../../../ui/format.ts'
import { RefundForm } from './RefundForm.tsx'

/** A member's orders; staff with payments.refund get a refund form per paid order not refunded in full. */
export function MemberOrders({
  orders,
  mayRefund,
  onDone,
}: {
  orders: MemberOrderEntry[]
  mayRefund: boolean
  onDone: () => void
}) {
  return (
    <section aria-labelledby="mem-orders">
      <h2 id="mem-orders">{m.op_mem_orders()}</h2>
      <div className="console-table-wrap">
        <table className="console-table">
          <thead>
            <tr>
              <th scope="col">{m.op_col_when()}</th>
              <th scope="col">{m.op_mem_amount()}</th>
              <th scope="col">{m.op_mem_col_credits()}</th>
              <th scope="col">{m.op_mem_status()}</th>
              <th scope="col">{m.op_mem_refunded()}</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr key={o.id}>
                <td>{formatDateTime(o.created_at)}</td>
                <td>{formatMoney(o.amount / 100, o.currency)}</td>
                <td>{formatNumber(o.credits)}</td>
                <td>
                  <code>{o.status}</code>
                </td>
                <td>{formatMoney(o.refunded / 100, o.currency)}</td>
              </tr>
            ))}
            {orders.length === 0 && (
              <tr>
                <td colSpan={5}>{m.op_mem_no_orders()}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {mayRefund &&
        orders
          .filter((o) => o.refunded < o.amount && o.status !== 'pending' && o.payment_id)
          .map((o) => <RefundForm key={o.id} order={o} onDone={onDone} />)}
    </section>
  )
}
