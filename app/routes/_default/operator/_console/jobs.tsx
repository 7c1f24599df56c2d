// The job queue (jobs): waiting, running and failed jobs with their last
// error; a failed job is retried from its first attempt or discarded, with a
// reason for the audit log.
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import type { JobEntry } from '../../../../../api/contract/operator/sites.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { call, useConsoleQuery } from '../../../../data/console-client.ts'
import { formatDateTime } from '../../../../ui/format.ts'
import '../../../../features/operator/sites.css'

export const Route = createFileRoute('/_default/operator/_console/jobs')({
  component: JobsPage,
})

function JobTable({
  title,
  jobs,
  act,
}: {
  title: string
  jobs: JobEntry[]
  act?: (job: JobEntry, action: 'retry' | 'discard') => void
}) {
  return (
    <section>
      <h2>{title}</h2>
      <div className="console-table-wrap">
        <table className="console-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{m.op_site_job_kind()}</th>
              <th scope="col">{m.op_site_job_attempts()}</th>
              <th scope="col">{m.op_site_job_run_at()}</th>
              <th scope="col">{m.op_site_job_error()}</th>
              {act && <th scope="col">{m.op_col_action()}</th>}
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.id}>
                <td>{j.id}</td>
                <td>
                  <code>{j.kind}</code>
                </td>
                <td>
                  {j.attempts}/{j.max_attempts}
                </td>
                <td>{formatDateTime(j.run_at)}</td>
                <td className="job-error">{j.last_error ?? '—'}</td>
                {act && (
                  <td>
                    <button type="button" className="button" onClick={() => act(j, 'retry')}>
                      {m.op_site_job_retry()}
                    </button>{' '}
                    <button
                      type="button"
                      className="button button--secondary"
                      onClick={() => act(j, 'discard')}
                    >
                      {m.op_site_job_discard()}
                    </button>
                  </td>
                )}
              </tr>
            ))}
            {jobs.length === 0 && (
              <tr>
                <td colSpan={act ? 6 : 5}>{m.op_site_job_none()}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  )
}

function JobsPage() {
  const list = useConsoleQuery('operatorJobs')
  const [error, setError] = useState(false)

  async function act(job: JobEntry, action: 'retry' | 'discard') {
    const reason = window.prompt(m.op_reason_prompt())?.trim()
    if (reason === undefined) return
    const r = await call('operatorJobAction', {
      body: { id: job.id, action, ...(reason ? { reason } : {}) },
    })
    setError(!r.ok)
    list.reload()
  }

  return (
    <main>
      <h1>{m.op_site_job_title()}</h1>
      <p>{m.op_site_job_intro()}</p>
      {(list.error || error) && <p role="alert">{m.error_generic()}</p>}
      {list.data && (
        <>
          <JobTable
            title={m.op_site_job_failed()}
            jobs={list.data.failed}
            act={(j, a) => void act(j, a)}
          />
          <JobTable title={m.op_site_job_running()} jobs={list.data.running} />
          <JobTable title={m.op_site_job_queued()} jobs={list.data.queued} />
        </>
      )}
    </main>
  )
}
