import { m } from '../../../../../../messages/paraglide/messages.js'
import { call, consoleLink } from '../../../../../data/console-client.ts'
import { askReason, memberFailure } from './member-actions.ts'

/**
 * Data requests (members.data): the member's data as a JSON download, and
 * deleting the account on request; both with a reason for the audit log.
 */
export function MemberData({
  memberId,
  deleted,
  onDone,
}: {
  memberId: number
  deleted: boolean
  /** After a deletion attempt: its notice, and the page reloads. */
  onDone: (notice: string) => void
}) {
  async function exportData() {
    const reason = askReason()
    if (!reason) return
    const a = document.createElement('a')
    a.href = await consoleLink('operatorMemberExport', { id: memberId, reason })
    a.download = `member-${memberId}-data.json`
    a.click()
  }

  async function remove() {
    if (!window.confirm(m.op_mem_delete_confirm())) return
    const reason = askReason()
    if (!reason) return
    const res = await call('operatorMemberDelete', { body: { member_id: memberId, reason } })
    onDone(res.ok ? m.op_mem_done() : memberFailure(res))
  }

  return (
    <section aria-labelledby="mem-data">
      <h2 id="mem-data">{m.op_mem_data()}</h2>
      <p className="member-form">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void exportData()}
        >
          {m.op_mem_export()}
        </button>
        {!deleted && (
          <button type="button" className="button" onClick={() => void remove()}>
            {m.op_mem_delete()}
          </button>
        )}
      </p>
    </section>
  )
}
