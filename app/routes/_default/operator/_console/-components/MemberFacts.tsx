import type { MemberDetail } from '../../../../../../api/contract/operator/members.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { formatDate, formatDateTime, formatNumber } from '../../../../../ui/format.ts'

/** A member's account, profile and sign-up source, as the console shows them (read only). */
export function MemberFacts({ detail: d }: { detail: MemberDetail }) {
  const a = d.account
  return (
    <>
      <section aria-labelledby="mem-account">
        <h2 id="mem-account">{m.op_mem_account()}</h2>
        <dl className="member-facts">
          <dt>{m.op_mem_col_email()}</dt>
          <dd>{a.email}</dd>
          <dt>{m.op_mem_col_signup()}</dt>
          <dd>{formatDateTime(a.signup_date)}</dd>
          <dt>{m.op_mem_activated()}</dt>
          <dd>{a.activated_at ? formatDateTime(a.activated_at) : m.op_mem_not_activated()}</dd>
          <dt>{m.op_mem_col_country()}</dt>
          <dd>{a.country}</dd>
          <dt>{m.op_mem_language()}</dt>
          <dd>{a.language}</dd>
          <dt>{m.op_mem_last_active()}</dt>
          <dd>{formatDateTime(a.last_active_at)}</dd>
          <dt>{m.op_mem_col_credits()}</dt>
          <dd data-testid="member-credits">{formatNumber(a.credits)}</dd>
          {a.deleted_at && (
            <>
              <dt>{m.op_mem_deleted()}</dt>
              <dd>{formatDateTime(a.deleted_at)}</dd>
            </>
          )}
        </dl>
      </section>

      <section aria-labelledby="mem-profile">
        <h2 id="mem-profile">{m.op_mem_profile()}</h2>
        <dl className="member-facts">
          <dt>{m.op_mem_birth()}</dt>
          <dd>{formatDate(d.profile.date_of_birth)}</dd>
          <dt>{m.op_mem_place()}</dt>
          <dd>{[d.profile.city, d.profile.countryregion].filter(Boolean).join(', ') || '—'}</dd>
          <dt>{m.op_mem_about()}</dt>
          <dd>{d.profile.personal || '—'}</dd>
          {Object.entries(d.profile.profile_fields).map(([k, v]) => (
            <FactRow key={k} term={k} value={v} />
          ))}
          <dt>{m.op_mem_photos()}</dt>
          <dd>{d.profile.photos}</dd>
        </dl>
      </section>

      <section aria-labelledby="mem-source">
        <h2 id="mem-source">{m.op_mem_source()}</h2>
        <pre className="member-source">
          {JSON.stringify(
            { trafficsource: d.signup.trafficsource, signup_meta: d.signup.signup_meta },
            null,
            2,
          )}
        </pre>
      </section>
    </>
  )
}

function FactRow({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  )
}
