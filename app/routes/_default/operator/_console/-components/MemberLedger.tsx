import type { MemberDetail } from '../../../../../../api/contract/operator/members.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { formatDateTime, formatNumber } from '../../../../../ui/format.ts'
import { AdjustForm } from './AdjustForm.tsx'

/** A member's credit history (the ledger, newest first) with its sum; staff with credits.adjust get the adjust form. */
export function MemberLedger({
  memberId,
  detail,
  mayAdjust,
  onDone,
}: {
  memberId: number
  detail: Pick<MemberDetail, 'ledger' | 'ledger_sum'>
  mayAdjust: boolean
  onDone: () => void
}) {
  return (
    <section aria-labelledby="mem-ledger">
      <h2 id="mem-ledger">{m.op_mem_ledger()}</h2>
      {mayAdjust && <AdjustForm memberId={memberId} onDone={onDone} />}
      <p>{m.op_mem_ledger_sum({ sum: formatNumber(detail.ledger_sum) })}</p>
      <div className="console-table-wrap">
        <table className="console-table" data-testid="member-ledger">
          <thead>
            <tr>
              <th scope="col">{m.op_col_when()}</th>
              <th scope="col">{m.op_mem_change()}</th>
              <th scope="col">{m.op_col_reason()}</th>
              <th scope="col">{m.op_mem_reference()}</th>
              <th scope="col">{m.op_mem_balance_after()}</th>
            </tr>
          </thead>
          <tbody>
            {detail.ledger.map((l) => (
              <tr key={l.id}>
                <td>{formatDateTime(l.created_at)}</td>
                <td>{l.delta > 0 ? `+${formatNumber(l.delta)}` : formatNumber(l.delta)}</td>
                <td>
                  <code>{l.reason}</code>
                </td>
                <td>{l.reference ?? '—'}</td>
                <td>{formatNumber(l.balance_after)}</td>
              </tr>
            ))}
            {detail.ledger.length === 0 && (
              <tr>
                <td colSpan={5}>{m.op_mem_no_ledger()}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  )
}
