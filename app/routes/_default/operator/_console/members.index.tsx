// Find a member (staff with members.view): by email, name or member number,
// twenty a page, newest first; a row opens the member's page.
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import type { MemberSummary } from '../../../../../api/contract/operator/members.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { useConsoleQuery } from '../../../../data/console-client.ts'
import '../../../../features/operator/members.css'
import { formatDate, formatNumber } from '../../../../ui/format.ts'

type Search = { q?: string; page?: number }

export const Route = createFileRoute('/_default/operator/_console/members/')({
  validateSearch: (s: Record<string, unknown>): Search => ({
    ...(typeof s.q === 'string' && s.q.trim() ? { q: s.q } : {}),
    ...(typeof s.page === 'number' && s.page > 1 ? { page: Math.floor(s.page) } : {}),
  }),
  component: MembersPage,
})

function MembersPage() {
  const search = Route.useSearch()
  const navigate = useNavigate({ from: '/operator/members/' })
  const [q, setQ] = useState(search.q ?? '')
  const page = search.page ?? 1
  const result = useConsoleQuery('operatorMembers', search.q ? { q: search.q, page } : null)

  function submit(e: FormEvent) {
    e.preventDefault()
    void navigate({ search: q.trim() ? { q: q.trim() } : {} })
  }

  return (
    <main>
      <h1>{m.op_mem_nav_label()}</h1>
      <MemberSearchForm q={q} onChange={setQ} onSubmit={submit} />
      {result.error && <p role="alert">{m.error_generic()}</p>}
      {search.q && result.data && <MembersTable rows={result.data.members} />}
      {search.q && (page > 1 || result.data?.more) && (
        <MembersPager q={search.q} page={page} more={result.data?.more} />
      )}
    </main>
  )
}

/** The search box: an email, a name or a member number. */
function MemberSearchForm({
  q,
  onChange,
  onSubmit,
}: {
  q: string
  onChange: (q: string) => void
  onSubmit: (e: FormEvent) => void
}) {
  return (
    <search>
      <form className="member-search" onSubmit={onSubmit}>
        <label>
          {m.op_mem_search_label()}
          <input
            type="search"
            name="q"
            value={q}
            onChange={(e) => onChange(e.target.value)}
            autoComplete="off"
            maxLength={254}
          />
        </label>
        <button type="submit" className="button">
          {m.op_mem_search()}
        </button>
      </form>
    </search>
  )
}

/** The page of members found, each name linking to the member's page, or that none was found. */
function MembersTable({ rows }: { rows: MemberSummary[] }) {
  return (
    <div className="console-table-wrap">
      <table className="console-table">
        <caption className="visually-hidden">{m.op_mem_nav_label()}</caption>
        <thead>
          <tr>
            <th scope="col">{m.op_mem_col_number()}</th>
            <th scope="col">{m.op_col_name()}</th>
            <th scope="col">{m.op_mem_col_email()}</th>
            <th scope="col">{m.op_mem_col_country()}</th>
            <th scope="col">{m.op_mem_col_signup()}</th>
            <th scope="col">{m.op_mem_col_credits()}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>{r.id}</td>
              <td>
                <Link to="/operator/members/$memberId" params={{ memberId: String(r.id) }}>
                  {r.name}
                </Link>{' '}
                {r.deleted && <span className="console-tag">{m.op_mem_deleted()}</span>}
                {r.fictional && <span className="console-tag">{m.op_mem_fictional()}</span>}
                {r.paid_user && <span className="console-tag">{m.op_mem_paid()}</span>}
              </td>
              <td>{r.email}</td>
              <td>{r.country}</td>
              <td>{formatDate(r.signup_date)}</td>
              <td>{formatNumber(r.credits)}</td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={6}>{m.op_mem_none()}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  )
}

/** Links to the previous and the next page of the same search, where there is one. */
function MembersPager({ q, page, more }: { q: string; page: number; more: boolean | undefined }) {
  return (
    <nav className="console-filters" aria-label={m.op_mem_nav_label()}>
      {page > 1 && (
        <Link to="/operator/members" search={{ q, page: page - 1 }}>
          {m.op_mem_prev()}
        </Link>
      )}
      {more && (
        <Link to="/operator/members" search={{ q, page: page + 1 }}>
          {m.op_mem_next()}
        </Link>
      )}
    </nav>
  )
}
