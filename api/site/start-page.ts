// The first start of a fresh clone builds the client and seeds the demo
// members, which takes a minute or more. The port answers at once with this
// page meanwhile: what is done, what runs, the last line of its output. It
// reloads itself every 2 s and is replaced by the real site when ready.
// A developer's page before the app exists, so English only and no script.

export type StepState = 'waiting' | 'running' | 'done' | 'failed'

export interface StartStep {
  label: string
  state: StepState
  /** The step's last output line (a build line, "seed: members 400/2000"). */
  detail: string
}

export const START_REFRESH_S = 2

export function startProgress(labels: readonly string[]) {
  const steps: StartStep[] = labels.map((label) => ({ label, state: 'waiting', detail: '' }))
  const t0 = Date.now()
  const step = (i: number) => {
    const s = steps[i]
    if (!s) throw new Error(`no start step ${i}`)
    return s
  }
  return {
    steps,
    begin(i: number) {
      step(i).state = 'running'
    },
    detail(i: number, line: string) {
      const text = line.trim()
      if (text) step(i).detail = text.slice(0, 200)
    },
    end(i: number, state: 'done' | 'failed' = 'done') {
      step(i).state = state
    },
    /** The handler the port serves until the site is ready. */
    fetch(req: Request): Response {
      const headers = { 'cache-control': 'no-store', 'retry-after': String(START_REFRESH_S) }
      const path = new URL(req.url).pathname
      // The probes (api/http/health.ts): alive, not ready yet.
      if (path === '/healthz') {
        return Response.json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } })
      }
      if (path.startsWith('/api/') || path === '/readyz') {
        return Response.json(
          { error: 'starting', message: 'the site is starting' },
          { status: 503, headers },
        )
      }
      const seconds = Math.round((Date.now() - t0) / 1000)
      return new Response(page(steps, seconds), {
        status: 503,
        headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
      })
    },
  }
}

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c)

const MARK: Record<StepState, string> = {
  waiting: '○',
  running: '◐',
  done: '✓',
  failed: '✗',
}

function page(steps: StartStep[], seconds: number): string {
  const failed = steps.some((s) => s.state === 'failed')
  const items = steps
    .map(
      (s) =>
        `<li class="${s.state}"><span aria-hidden="true">${MARK[s.state]}</span> ${esc(s.label)}` +
        ` <small>(${s.state})</small>${s.detail ? `<br><code>${esc(s.detail)}</code>` : ''}</li>`,
    )
    .join('')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${failed ? '' : `<meta http-equiv="refresh" content="${START_REFRESH_S}">`}
<title>Amora is starting…</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{color:#c2185b}ul{list-style:none;padding:0}li{margin:.75rem 0}code{font-size:.85rem;color:#555;overflow-wrap:anywhere}
.done span{color:#2e7d32}.running span{color:#c2185b}.failed span{color:#c62828}</style></head>
<body><main><h1>Amora is starting…</h1>
<p>${failed ? 'The start failed: see the terminal of <code>npm start</code>.' : `The first start builds the app and creates the demo members. This page reloads itself and shows the site when it is ready (${seconds} s so far).`}</p>
<ul aria-live="polite">${items}</ul></main></body></html>`
}
