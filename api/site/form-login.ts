// The login page's form without JavaScript (progressive enhancement). /login
// is prerendered for guests (docs/performance.md, "HTML that paints before JavaScript"),
// and its form says `method="post"`: one sent before the app has hydrated
// (a password manager's autofill and submit, a slow phone) comes here as an
// ordinary form post. It is answered by the same POST /api/login.php, asked
// in-process with the browser's own headers (rate limits, the origin check,
// suspensions and bans all apply as they do to the app), then redirected:
// 303 to the page the member was going to (the app's session starts from the
// cookie: the worker asks GET /api/user.php), or back to /login with the
// reason, which the page shows.
import type { Context } from 'hono'
import { type FormLoginFailure, samePath } from '../contract/rules/login.ts'

type ApiRequest = (path: string, init: RequestInit, env: unknown) => Response | Promise<Response>

/** Headers of the browser's request that the API reads (origin, cookies, client). */
const FORWARDED = [
  'cookie',
  'origin',
  'referer',
  'sec-fetch-site',
  'user-agent',
  'accept-language',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'host',
]

export async function formLogin(c: Context, api: { request: ApiRequest }): Promise<Response> {
  const url = new URL(c.req.url)
  const redirect = samePath(url.searchParams.get('redirect'))
  const back = (failed: FormLoginFailure, until?: string) => {
    const params = new URLSearchParams({ failed })
    if (until) params.set('until', until)
    if (redirect) params.set('redirect', redirect)
    return c.redirect(`/login?${params}`, 303)
  }
  let email = ''
  let password = ''
  try {
    const form = await c.req.parseBody()
    email = typeof form.email === 'string' ? form.email : ''
    password = typeof form.password === 'string' ? form.password : ''
  } catch {
    return back('invalid')
  }
  const headers = new Headers({ 'content-type': 'application/json' })
  for (const name of FORWARDED) {
    const value = c.req.header(name)
    if (value !== undefined) headers.set(name, value)
  }
  const res = await api.request(
    '/api/login.php',
    { method: 'POST', headers, body: JSON.stringify({ email, password }) },
    c.env,
  )
  if (res.status === 200) {
    for (const cookie of res.headers.getSetCookie())
      c.header('Set-Cookie', cookie, { append: true })
    return c.redirect(redirect ?? '/members', 303)
  }
  const body = (await res.json().catch(() => ({}))) as { error?: string; until?: string }
  if (res.status === 403 && body.error === 'banned') return c.redirect('/pages/ban', 303)
  if (res.status === 403 && body.error === 'suspended') return back('suspended', body.until)
  if (res.status === 429) return back('rate_limited')
  if (res.status === 400 || res.status === 401) return back('invalid')
  return back('error')
}
