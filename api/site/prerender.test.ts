// The pieces of api/site/prerender.ts that decide who gets a prerendered page
// and how its data is put into it (the render itself: e2e/prerender.e2e.ts).
import { expect, it } from 'vitest'
import {
  bootAfterPaint,
  hasSessionCookie,
  jsonForScript,
  PAGE_SEED_ID,
  reusedFor,
  SHOWCASE_REUSE_MS,
  shellWithPage,
} from './prerender.ts'

it('tells a session cookie from other cookies', () => {
  expect(hasSessionCookie('sid=abc')).toBe(true)
  expect(hasSessionCookie('PARAGLIDE_LOCALE=de; sid=abc')).toBe(true)
  expect(hasSessionCookie('PARAGLIDE_LOCALE=de; xsid=abc')).toBe(false)
  expect(hasSessionCookie(undefined)).toBe(false)
})

it('writes JSON that cannot end its script element or open markup', () => {
  const json = jsonForScript({ name: '</script><script>alert(1)</script> & <!--' })
  expect(json).not.toMatch(/[<>&]/)
  expect(JSON.parse(json)).toEqual({ name: '</script><script>alert(1)</script> & <!--' })
})

it('puts the page into #root and its seed as data that is never executed', () => {
  const shell = '<body><div id="root"></div><div id="teleports"></div></body>'
  const seed = { locale: 'en', kv: {} } as unknown as Parameters<typeof shellWithPage>[2]
  const out = shellWithPage(shell, '<main>$& price $1</main>', seed)
  expect(out).toContain('<div id="root"><main>$& price $1</main></div>')
  expect(out).toContain(
    `<script type="application/json" id="${PAGE_SEED_ID}">{"locale":"en","kv":{}}</script>`,
  )
})

it('leaves a prerendered page one script, the boot, which names the entry scripts it loads after the first paint', () => {
  const shell =
    '<head><script type="module" crossorigin src="/assets/shared-a.js"></script>' +
    '<script type="module" crossorigin src="/assets/shell-b.js"></script></head>' +
    '<body><div id="root"></div></body>'
  const seed = { locale: 'en', kv: {} } as unknown as Parameters<typeof shellWithPage>[2]
  const out = shellWithPage(shell, '<main>Hi</main>', seed, '/assets/boot-c.js')
  expect(out.match(/<script type="module"[^>]*>/g)).toEqual([
    '<script type="module" src="/assets/boot-c.js" data-boot="/assets/shared-a.js /assets/shell-b.js">',
  ])
  // Nothing fetches the app before the first paint: no preload links.
  expect(out).not.toMatch(/<link rel="modulepreload"/)
  // Without a boot script (an old build) the page keeps its entry scripts.
  expect(shellWithPage(shell, '<main>Hi</main>', seed)).toContain(
    '<script type="module" crossorigin src="/assets/shell-b.js"></script>',
  )
  expect(bootAfterPaint('<body>no scripts</body>', '/b.js')).toBe('<body>no scripts</body>')
})

it('puts the known stylesheets into a prerendered page and leaves others as links', () => {
  const shell =
    '<head><link rel="stylesheet" crossorigin href="/assets/a.css">' +
    '<link rel="stylesheet" crossorigin href="/assets/b.css"></head><body><div id="root"></div></body>'
  const seed = { locale: 'en', kv: {} } as unknown as Parameters<typeof shellWithPage>[2]
  const styles = new Map([['/assets/a.css', '.a{color:red}']])
  const out = shellWithPage(shell, '<main>Hi</main>', seed, null, styles)
  expect(out).toContain('<style>.a{color:red}</style>')
  expect(out).not.toContain('href="/assets/a.css"')
  expect(out).toContain('<link rel="stylesheet" crossorigin href="/assets/b.css">')
  // A stylesheet that could end the style element stays a link.
  const odd = new Map([['/assets/a.css', '.a{content:"</style><script>"}']])
  expect(shellWithPage(shell, '', seed, null, odd)).toContain('href="/assets/a.css"')
})

it('reuses a load per key for 60 s, loads again after, and forgets a failed load at once', async () => {
  expect(SHOWCASE_REUSE_MS).toBe(60_000)
  let now = 0
  let loads = 0
  const reused = reusedFor<number>(60_000, () => now)
  const load = async () => ++loads
  expect(await reused('a.example', load)).toBe(1)
  now = 59_999
  expect(await reused('a.example', load)).toBe(1)
  // Each host its own.
  expect(await reused('b.example', load)).toBe(2)
  now = 60_000
  expect(await reused('a.example', load)).toBe(3)
  // Concurrent hits share one load.
  now = 200_000
  const [x, y] = await Promise.all([reused('a.example', load), reused('a.example', load)])
  expect([x, y]).toEqual([4, 4])
  // A failure is not kept: the next hit loads again.
  await expect(reused('c.example', () => Promise.reject(new Error('down')))).rejects.toThrow()
  expect(await reused('c.example', load)).toBe(5)
})
