// The affiliate tracking cookie as the app writes it (spec §9: storage cookie
// 30 days, 2592000 s, SameSite Lax). No DOM in the unit suite: window and
// document are small stubs that record what the code does with them.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { captureNetwork, noteLander } from './tracking.ts'

let jar: Map<string, string>
let written: string[]
let replaced: string[]

function visit(href: string) {
  const location = new URL(href)
  vi.stubGlobal('window', {
    location,
    history: {
      state: null,
      replaceState: (_: unknown, __: string, url: URL) => replaced.push(String(url)),
    },
  })
}

beforeEach(() => {
  jar = new Map()
  written = []
  replaced = []
  vi.stubGlobal('document', {
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
    },
    set cookie(line: string) {
      written.push(line)
      const [pair = ''] = line.split('; ')
      const eq = pair.indexOf('=')
      jar.set(pair.slice(0, eq), pair.slice(eq + 1))
    },
  })
})

/** The attributes of a written cookie line, lower-cased names. */
const attributes = (line: string) =>
  Object.fromEntries(
    line
      .split('; ')
      .slice(1)
      .map((a) => {
        const [k = '', v = ''] = a.split('=')
        return [k.toLowerCase(), v]
      }),
  )

describe('tracking cookie (spec §9: 30 days, SameSite Lax)', () => {
  it('tracking cookie lives 30 days (Max-Age=2592000), SameSite Lax, for the whole site', () => {
    visit('http://localhost/?network=aff1&sub1=s1&page=2')
    expect(captureNetwork()).toEqual({ network: 'aff1', sub1: 's1' })
    expect(written).toHaveLength(1)
    expect(attributes(written[0] ?? '')).toEqual({
      'max-age': '2592000',
      path: '/',
      samesite: 'Lax',
    })
    // The keys come off the address bar once stored (spec §9).
    expect(replaced).toEqual(['http://localhost/?page=2'])
  })

  it('tracking cookie keeps its 30 days when the lander is noted, and is Secure over https', () => {
    visit('https://example.com/?network=aff1')
    captureNetwork()
    noteLander('video')
    expect(written).toHaveLength(2)
    for (const line of written) {
      expect(attributes(line)).toMatchObject({ 'max-age': '2592000', samesite: 'Lax' })
      expect(line).toMatch(/; Secure$/)
    }
    visit('https://example.com/')
    expect(captureNetwork()).toEqual({ network: 'aff1', lander: 'video' })
  })
})
