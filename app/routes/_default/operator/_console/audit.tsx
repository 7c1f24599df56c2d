// The audit log (admins): every staff action, newest first, filtered by staff
// member or by what was acted on; older pages on demand.
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import type { AuditEntry } from '../../../../../api/contract/operator/staff.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { call, useConsoleQuery } from '../../../../data/console-client.ts'
import { formatDateTime } from '../../../../ui/format.ts'

type AuditSearch = { target_type?: string; target_id?: string }

export const Route = createFileRoute('/_default/operator/_console/audit')({
  validateSearch: (s: Record<string, unknown>): AuditSearch => ({
    ...(typeof s.target_type === 'string' ? { target_type: s.target_type } : {}),
    ...(typeof s.target_id === 'string' ? { target_id: s.target_id } : {}),
  }),
  component: AuditPage,
})

function AuditPage() {
  const search = Route.useSearch()
  const first = useConsoleQuery('operatorAudit', search)
  const [more, setMore] = useState<{ entries: AuditEntry[]; next: number | null } | null>(null)
  const entries = [...(first.data?.entries ?? []), ...(more?.entries ?? [])]
  const next = more ? more.next : (first.data?.next ?? null)

  async function loadMore() {
    if (next === null) return
    const res = await call('operatorAudit', { query: { ...search, before: next } })
    if (res.ok)
      setMore({ entries: [...(more?.entries ?? []), ...res.data.entries], next: res.data.next })
  }

  return (
    <main>
      <h1>{m.op_audit_title()}</h1>
      <p>{m.op_audit_intro()}</p>
      {first.error && <p role="alert">{m.error_generic()}</p>}
      <div className="console-table-wrap">
        <table className="console-table">
          <caption className="visually-hidden">{m.op_audit_title()}</caption>
          <thead>
            <tr>
              <th scope="col">{m.op_col_when()}</th>
              <th scope="col">{m.op_col_staff()}</th>
              <th scope="col">{m.op_col_action()}</th>
              <th scope="col">{m.op_col_target()}</th>
              <th scope="col">{m.op_col_reason()}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>{formatDateTime(e.created_at)}</td>
                <td>{e.staff?.name ?? m.op_audit_machine()}</td>
                <td>
                  <code>{e.action}</code>
                </td>
                <td>{e.target_type ? `${e.target_type} ${e.target_id ?? ''}` : '—'}</td>
                <td>{e.reason ?? '—'}</td>
              </tr>
            ))}
            {!first.loading && entries.length === 0 && (
              <tr>
                <td colSpan={5}>{m.op_audit_empty()}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {next !== null && (
        <p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void loadMore()}
          >
            {m.op_more()}
          </button>
        </p>
      )}
    </main>
  )
}
