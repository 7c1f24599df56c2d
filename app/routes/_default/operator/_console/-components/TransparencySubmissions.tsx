import { m } from '../../../../../../messages/paraglide/messages.js'
import { useConsoleQuery } from '../../../../../data/console-client.ts'
import { actionName } from '../../../../../features/operator/moderation.ts'
import { formatDateTime } from '../../../../../ui/format.ts'

const STATUS: Record<string, () => string> = {
  queued: m.op_tdb_status_queued,
  submitted: m.op_tdb_status_submitted,
  failed: m.op_tdb_status_failed,
}

/**
 * Each statement of reasons on its way to the EU's DSA Transparency Database
 * (Art. 24(5)): queued (with the last error while the job retries),
 * submitted (with the database's id) or failed (the job gave up; it can be
 * retried on the jobs page).
 */
export function TransparencySubmissions() {
  const list = useConsoleQuery('operatorTransparency')
  const data = list.data
  return (
    <section aria-labelledby="tdb-title">
      <h2 id="tdb-title">{m.op_tdb_title()}</h2>
      {list.error && <p role="alert">{m.error_generic()}</p>}
      {data && !data.enabled && <p>{m.op_tdb_off()}</p>}
      {data && (
        <div className="console-table-wrap">
          <table className="console-table">
            <thead>
              <tr>
                <th scope="col">{m.op_tdb_sanction()}</th>
                <th scope="col">{m.op_tdb_state()}</th>
                <th scope="col">{m.op_site_job_attempts()}</th>
                <th scope="col">{m.op_tdb_when()}</th>
                <th scope="col">{m.op_site_job_error()}</th>
              </tr>
            </thead>
            <tbody>
              {data.submissions.map((s) => (
                <tr key={s.id} data-status={s.status}>
                  <td>
                    #{s.sanction} {actionName(s.kind)}
                  </td>
                  <td>
                    {(STATUS[s.status] ?? (() => s.status))()}
                    {s.remote_id && (
                      <>
                        {' '}
                        <code>{s.remote_id}</code>
                      </>
                    )}
                  </td>
                  <td>{s.attempts}</td>
                  <td>{formatDateTime(s.submitted_at ?? s.created_at)}</td>
                  <td className="job-error">{s.last_error ?? '—'}</td>
                </tr>
              ))}
              {data.submissions.length === 0 && (
                <tr>
                  <td colSpan={5}>{m.op_tdb_none()}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
