import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/client.ts'
import { siteSettings } from '../../db/schema/index.ts'
import { createApi } from '../app.ts'
import { CompanyInfo, Settings } from '../contract/index.ts'
import { applySettingsFromEnv } from './settings.ts'

describe('GET /api/settings.php', () => {
  it('answers the spec Settings, applies operator overrides and never exposes secrets', async () => {
    const { db, close } = await openDatabase({ kind: 'pglite' })
    const api = createApi({ db })
    const first = Settings.parse(await (await api.request('/api/settings.php')).json())
    expect(first.signups).toBe('all')
    expect(first.push_pub).toMatch(/^[A-Za-z0-9_-]{87}$/) // 65 raw bytes, base64url
    expect(first.region_data.NL?.some((r) => r.id === 'NL-NH')).toBe(true)
    await db.insert(siteSettings).values({ key: 'signups', value: 'other' })
    const second = await (await api.request('/api/settings.php')).json()
    expect(second.signups).toBe('other')
    expect(second.push_pub).toBe(first.push_pub) // generated once, then kept
    expect(JSON.stringify(second)).not.toContain('privateKey')
    await close()
  })
})

describe('SITE_SETTINGS at start', () => {
  it('writes known settings and refuses unknown keys and bad values', async () => {
    const { db, close } = await openDatabase({ kind: 'pglite' })
    const api = createApi({ db })
    expect(await applySettingsFromEnv(db, '{"logged_out_search":"all","niche":3}')).toEqual([
      'logged_out_search',
      'niche',
    ])
    const s = Settings.parse(await (await api.request('/api/settings.php')).json())
    expect([s.logged_out_search, s.niche]).toEqual(['all', 3])
    await expect(applySettingsFromEnv(db, '{"secret.vapid":{}}')).rejects.toThrow(/unknown key/)
    await expect(applySettingsFromEnv(db, '{"niche":9}')).rejects.toThrow(/bad value for niche/)
    await expect(applySettingsFromEnv(db, '[]')).rejects.toThrow(/JSON object/)
    expect(await applySettingsFromEnv(db, undefined)).toEqual([])
    await close()
  })
})

describe('GET /api/companyinfo.php', () => {
  it('answers the spec company info from the operator settings, public', async () => {
    const { db, close } = await openDatabase({ kind: 'pglite' })
    const api = createApi({ db })
    await applySettingsFromEnv(
      db,
      '{"company_kvk":"12345678","company_vat_numbers":["NL123456789B01"]}',
    )
    const res = await api.request('/api/companyinfo.php')
    expect(res.status).toBe(200)
    const info = CompanyInfo.parse(await res.json())
    expect(info.kvk).toBe('12345678')
    expect(info.vat_numbers).toEqual(['NL123456789B01'])
    expect(Object.keys(info).sort()).toEqual([
      'address',
      'city',
      'country',
      'delete_discount',
      'kvk',
      'name',
      'support_phone',
      'tradenames',
      'vat_numbers',
    ])
    await close()
  })
})
