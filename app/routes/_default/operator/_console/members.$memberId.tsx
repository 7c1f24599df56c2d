// A member's page in the console: account, profile, sign-up source,
// sessions (end one), transactions (refund), the credit history (adjust),
// and data requests (export, delete). Every action asks for the reason that
// goes to the audit log; the server checks each one's permission again. The
// sections and their forms are in -components/.
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import type { Capability } from '../../../../../api/contract/rules/staff.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { useConsoleQuery } from '../../../../data/console-client.ts'
import { MemberData } from './-components/MemberData.tsx'
import { MemberFacts } from './-components/MemberFacts.tsx'
import { MemberLedger } from './-components/MemberLedger.tsx'
import { MemberOrders } from './-components/MemberOrders.tsx'
import { MemberSessions } from './-components/MemberSessions.tsx'
import '../../../../features/operator/members.css'

export const Route = createFileRoute('/_default/operator/_console/members/$memberId')({
  component: MemberPage,
})

function MemberPage() {
  const { memberId } = Route.useParams()
  const { staff } = Route.useRouteContext()
  const id = Number(memberId)
  const detail = useConsoleQuery(
    'operatorMember',
    Number.isSafeInteger(id) && id > 0 ? { id } : null,
  )
  const [notice, setNotice] = useState<string | null>(null)
  const may = (c: Capability) => staff.capabilities.includes(c)
  const d = detail.data

  /** After an action on the member: its notice, and the member as the server has them now. */
  function acted(text: string) {
    setNotice(text)
    detail.reload()
  }

  if (detail.error) {
    return (
      <main>
        <p role="alert">{m.error_generic()}</p>
      </main>
    )
  }
  if (!d) return <main aria-busy="true" />
  const a = d.account
  return (
    <main className="member-page">
      <p>
        <Link to="/operator/members">{m.op_mem_back()}</Link>
      </p>
      <h1>
        {a.name} <small>#{a.id}</small>{' '}
        {a.deleted && <span className="console-tag">{m.op_mem_deleted()}</span>}
        {a.fictional && <span className="console-tag">{m.op_mem_fictional()}</span>}
        {a.paid_user && <span className="console-tag">{m.op_mem_paid()}</span>}
      </h1>
      <p role="status">{notice}</p>
      <MemberFacts detail={d} />
      <MemberSessions
        memberId={id}
        sessions={d.sessions}
        mayEnd={may('members.sessions')}
        onDone={acted}
      />
      <MemberOrders orders={d.orders} mayRefund={may('payments.refund')} onDone={detail.reload} />
      <MemberLedger
        memberId={id}
        detail={d}
        mayAdjust={may('credits.adjust')}
        onDone={detail.reload}
      />
      {may('members.data') && <MemberData memberId={id} deleted={a.deleted} onDone={acted} />}
    </main>
  )
}
