import type { FormEvent } from 'react'
import { m } from '../../../../../../messages/paraglide/messages.js'

/**
 * Which settings the page edits: the server-wide ones ('') or a site's (its
 * host); removing the chosen site, adding one by its host.
 */
export function SiteScope({
  hosts,
  scope,
  onScope,
  onRemove,
  onAdd,
}: {
  hosts: string[]
  scope: string
  onScope: (scope: string) => void
  onRemove: () => void
  /** Adds the site; true when the server took it. */
  onAdd: (host: string) => Promise<boolean>
}) {
  async function add(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const formEl = e.currentTarget
    const host = String(new FormData(formEl).get('host') ?? '')
      .trim()
      .toLowerCase()
    if (await onAdd(host)) formEl.reset()
  }

  return (
    <div className="site-scope">
      <label className="site-form__field">
        {m.op_site_scope()}
        <select value={scope} onChange={(e) => onScope(e.target.value)}>
          <option value="">{m.op_site_server_wide()}</option>
          {hosts.map((host) => (
            <option key={host} value={host}>
              {host}
            </option>
          ))}
        </select>
      </label>
      {scope && (
        <button type="button" className="button button--secondary" onClick={onRemove}>
          {m.op_site_remove()}
        </button>
      )}
      <form className="site-scope" onSubmit={(e) => void add(e)}>
        <label className="site-form__field">
          {m.op_site_new_host()}
          <input name="host" required maxLength={253} placeholder="example.com" />
        </label>
        <button type="submit" className="button button--secondary">
          {m.op_site_add()}
        </button>
      </form>
    </div>
  )
}
