import type { MemberDetail } from '../../../../../../api/contract/operator/members.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { call } from '../../../../../data/console-client.ts'
import { formatDateTime } from '../../../../../ui/format.ts'
import { askReason, memberFailure } from './member-actions.ts'

/** A member's signed-in devices; staff with members.sessions may end one (with a reason). */
export function MemberSessions({
  memberId,
  sessions,
  mayEnd,
  onDone,
}: {
  memberId: number
  sessions: MemberDetail['sessions']
  mayEnd: boolean
  /** After an attempt: its notice ('' never), and the page reloads. */
  onDone: (notice: string) => void
}) {
  async function end(sessionId: number) {
    const reason = askReason()
    if (!reason) return
    const res = await call('operatorEndMemberSession', {
      body: { member_id: memberId, session_id: sessionId, reason },
    })
    onDone(res.ok ? m.op_mem_done() : memberFailure(res))
  }

  return (
    <section aria-labelledby="mem-sessions">
      <h2 id="mem-sessions">{m.op_mem_sessions()}</h2>
      <div className="console-table-wrap">
        <table className="console-table">
          <thead>
            <tr>
              <th scope="col">{m.op_mem_device()}</th>
              <th scope="col">{m.op_col_when()}</th>
              <th scope="col">{m.op_mem_last_seen()}</th>
              <th scope="col">
                <span className="visually-hidden">{m.op_mem_end_session()}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id}>
                <td>
                  {[s.browser, s.os].filter(Boolean).join(' · ') || m.op_mem_unknown_device()}
                </td>
                <td>{formatDateTime(s.created_at)}</td>
                <td>{formatDateTime(s.last_seen_at)}</td>
                <td>
                  {mayEnd && (
                    <button
                      type="button"
                      className="button button--secondary"
                      onClick={() => void end(s.id)}
                    >
                      {m.op_mem_end_session()}
                    </button>
                  )}
                </td>
              </tr>
            ))}
            {sessions.length === 0 && (
              <tr>
                <td colSpan={4}>{m.op_mem_no_sessions()}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  )
}
