// The first start's progress page: the port answers while the site builds
// and seeds, with what is done and what runs, and never pretends to be ready.
import { expect, it } from 'vitest'
import { START_REFRESH_S, startProgress } from './start-page.ts'

it('answers pages with 503, the steps and a 2 s self-reload, and API calls with JSON 503', async () => {
  expect(START_REFRESH_S).toBe(2)
  const p = startProgress(['Build', 'Database', 'Seed'])
  p.begin(0)
  p.detail(0, 'transforming <modules>…')
  const page = p.fetch(new Request('http://localhost/members'))
  expect(page.status).toBe(503)
  expect(page.headers.get('retry-after')).toBe('2')
  const html = await page.text()
  expect(html).toContain('<meta http-equiv="refresh" content="2">')
  expect(html).toContain('Build <small>(running)</small>')
  expect(html).toContain('transforming &lt;modules&gt;…')
  expect(html).toContain('Seed <small>(waiting)</small>')
  const api = p.fetch(new Request('http://localhost/api/user.php'))
  expect(api.status).toBe(503)
  expect(await api.json()).toMatchObject({ error: 'starting' })
})

it('stops reloading once a step failed', async () => {
  const p = startProgress(['Build'])
  p.begin(0)
  p.end(0, 'failed')
  const html = await p.fetch(new Request('http://localhost/')).text()
  expect(html).not.toContain('http-equiv="refresh"')
  expect(html).toContain('The start failed')
})
