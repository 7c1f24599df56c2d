// Staff accounts (admins): who has which roles; add a colleague (their
// one-time password and authenticator secret are shown here once); change
// roles or disable an account, with a reason for the audit log.
import { createFileRoute } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import type { StaffCreateResponse, StaffEntry } from '../../../../../api/contract/operator/staff.ts'
import { STAFF_ROLES, type StaffRole } from '../../../../../api/contract/rules/staff.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { call, useConsoleQuery } from '../../../../data/console-client.ts'
import { roleName } from '../../../../features/operator/nav.ts'

export const Route = createFileRoute('/_default/operator/_console/staff')({
  component: StaffPage,
})

function StaffPage() {
  const { staff: me } = Route.useRouteContext()
  const list = useConsoleQuery('operatorStaff')
  const [created, setCreated] = useState<StaffCreateResponse | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function add(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const formEl = e.currentTarget
    const form = new FormData(formEl)
    setError(null)
    const res = await call('operatorStaffCreate', {
      body: {
        email: String(form.get('email')),
        name: String(form.get('name')),
        // The boxes hold the roles' names; the server refuses anything else.
        roles: form.getAll('roles').map(String) as StaffRole[],
      },
    })
    if (!res.ok) {
      setError(res.error === 'email_taken' ? m.op_staff_email_taken() : m.op_check_fields())
      return
    }
    formEl.reset()
    setCreated(res.data)
    list.reload()
  }

  async function toggle(s: StaffEntry) {
    const reason = window.prompt(m.op_reason_prompt())
    if (!reason?.trim()) return
    const res = await call('operatorStaffUpdate', {
      body: { id: s.id, disabled: !s.disabled, reason },
    })
    if (!res.ok) setError(m.error_generic())
    list.reload()
  }

  return (
    <main>
      <h1>{m.op_staff_title()}</h1>
      <StaffTable staff={list.data?.staff} meId={me.id} onToggle={(s) => void toggle(s)} />

      <h2>{m.op_staff_add()}</h2>
      {created && <CreatedSecret created={created} />}
      <AddStaffForm error={error} onAdd={(e) => void add(e)} />
    </main>
  )
}

/** The staff accounts, their roles and state; another's account can be disabled or enabled. */
function StaffTable({
  staff,
  meId,
  onToggle,
}: {
  staff: StaffEntry[] | undefined
  meId: number
  onToggle: (s: StaffEntry) => void
}) {
  return (
    <div className="console-table-wrap">
      <table className="console-table">
        <caption className="visually-hidden">{m.op_staff_title()}</caption>
        <thead>
          <tr>
            <th scope="col">{m.op_col_name()}</th>
            <th scope="col">{m.login_email()}</th>
            <th scope="col">{m.op_col_roles()}</th>
            <th scope="col">{m.op_col_state()}</th>
          </tr>
        </thead>
        <tbody>
          {staff?.map((s) => (
            <tr key={s.id}>
              <td>{s.name}</td>
              <td>{s.email}</td>
              <td>{s.roles.map(roleName).join(', ')}</td>
              <td>
                {s.disabled ? m.op_staff_disabled() : m.op_staff_active()}{' '}
                {s.id !== meId && (
                  <button type="button" className="button--quiet" onClick={() => onToggle(s)}>
                    {s.disabled ? m.op_staff_enable() : m.op_staff_disable()}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The new colleague's one-time password and authenticator secret, shown this once. */
function CreatedSecret({ created }: { created: StaffCreateResponse }) {
  return (
    <section className="console-secret" aria-live="polite">
      <p>{m.op_staff_created({ email: created.staff.email })}</p>
      <p>
        {m.login_password()}: <strong>{created.password}</strong>
      </p>
      <p>
        {m.op_staff_totp_secret()}: <strong>{created.totp_secret}</strong>
      </p>
      <p>{created.totp_uri}</p>
    </section>
  )
}

/** The form that adds a colleague: name, email and roles. */
function AddStaffForm({
  error,
  onAdd,
}: {
  error: string | null
  onAdd: (e: FormEvent<HTMLFormElement>) => void
}) {
  return (
    <form className="form" onSubmit={onAdd}>
      {error && (
        <p className="form__error" role="alert">
          {error}
        </p>
      )}
      <label>
        {m.op_col_name()}
        <input name="name" required maxLength={100} />
      </label>
      <label>
        {m.login_email()}
        <input name="email" type="email" required maxLength={254} />
      </label>
      <fieldset className="console-checks">
        <legend>{m.op_col_roles()}</legend>
        {STAFF_ROLES.map((r) => (
          <label key={r}>
            <input type="checkbox" name="roles" value={r} /> {roleName(r)}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button">
        {m.op_staff_add()}
      </button>
    </form>
  )
}
