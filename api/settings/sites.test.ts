// One server, several sites (template, niche, name and company data by host):
// on both databases, the settings endpoint and the served shell follow the
// request's host, and X-Forwarded-Host counts only behind a trusted proxy.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createApi } from '../app.ts'
import { Settings } from '../contract/index.ts'
import { createMailer } from '../mail/mailer.ts'
import { createServer } from '../server.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { applySettingsFromEnv } from './settings.ts'

const SITES = JSON.stringify({
  template: 'boxy',
  template_flags: { likes: false },
  sites: {
    'men.example': { template: 'lavish', niche: 7, name: 'Amora Men', company_name: 'Men B.V.' },
    'she.example:8080': { niche: 2, template_flags: { chat: false } },
  },
})

describeEngines('sites by host on %s', (engine) => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await freshDatabase(engine)
    await applySettingsFromEnv(t.db, SITES)
  })
  afterAll(() => t.close())

  const get = async (
    host: string,
    path = '/api/settings.php',
    headers = {},
    trustProxy = false,
  ) => {
    const mailer = createMailer({ smtpUrl: undefined, from: 'x@localhost', devListing: false })
    const api = createApi({ db: t.db, accounts: { mailer, trustProxy } })
    return api.request(`http://${host}${path}`, { headers: { host, ...headers } })
  }

  it('answers the default site (template default classic overridden to boxy) for an unknown host', async () => {
    const s = Settings.parse(await (await get('other.example')).json())
    expect([s.template, s.niche, s.name]).toEqual(['boxy', 1, 'Amora'])
    // Flags merge one by one: only likes is off.
    expect(s.template_flags).toEqual({
      navigation: true,
      chat: true,
      likes: false,
      notifications: true,
      footer_copyright: true,
    })
  })

  it("answers a site's own template, niche, name and company data for its host", async () => {
    const s = Settings.parse(await (await get('men.example')).json())
    expect([s.template, s.niche, s.name, s.company_name]).toEqual([
      'lavish',
      7,
      'Amora Men',
      'Men B.V.',
    ])
    const info = await (await get('men.example', '/api/companyinfo.php')).json()
    expect(info.name).toBe('Men B.V.')
  })

  it('matches a host with its port first, then without', async () => {
    const s = Settings.parse(await (await get('she.example:8080')).json())
    expect([s.niche, s.template_flags.chat, s.template_flags.likes]).toEqual([2, false, false])
    const bare = Settings.parse(await (await get('men.example:3000')).json())
    expect(bare.niche).toBe(7)
  })

  it('ignores X-Forwarded-Host unless TRUST_PROXY', async () => {
    const spoofed = { 'x-forwarded-host': 'men.example' }
    const s = Settings.parse(await (await get('other.example', undefined, spoofed)).json())
    expect(s.niche).toBe(1)
    const proxied = await get('other.example', undefined, spoofed, true)
    expect(Settings.parse(await proxied.json()).niche).toBe(7)
  })

  it('serves the app shell with the root classes of the host (first paint, no script)', async () => {
    const dist = mkdtempSync(`${tmpdir()}/shell-`)
    writeFileSync(
      `${dist}/index.html`,
      '<!doctype html><html lang="en"><title>Amora</title></html>',
    )
    const mailer = createMailer({ smtpUrl: undefined, from: 'x@localhost', devListing: false })
    const server = createServer({ db: t.db, distDir: dist, mediaDir: dist, accounts: { mailer } })
    for (const path of ['/', '/index.html', '/members']) {
      const html = await (await server.request(`http://men.example${path}`)).text()
      expect(html).toContain(
        '<html lang="en" class="lavish niche-7 hide-likes" data-template="lavish" data-niche="7">',
      )
      expect(html).toContain('<title>Amora Men</title>')
    }
    const def = await (await server.request('http://x.example/')).text()
    expect(def).toContain('class="boxy niche-1 hide-likes"')
  })
})

it('SITE_SETTINGS refuses a bad site entry, naming it', async () => {
  const t = await freshDatabase('pglite')
  await expect(applySettingsFromEnv(t.db, '{"template":"fancy"}')).rejects.toThrow(
    /bad value for template/,
  )
  await expect(applySettingsFromEnv(t.db, '{"sites":{"a.example":{"niche":8}}}')).rejects.toThrow(
    /bad value for sites.a.example.niche/,
  )
  await expect(applySettingsFromEnv(t.db, '{"sites":{"a.example":{"secret":1}}}')).rejects.toThrow(
    /unknown key sites.a.example.secret/,
  )
  await expect(applySettingsFromEnv(t.db, '{"sites":[]}')).rejects.toThrow(/sites must map/)
  await t.close()
})
