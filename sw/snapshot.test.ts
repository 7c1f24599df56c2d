import { describe, expect, it } from 'vitest'
import {
  AFTER_PAINT_SCRIPT,
  PAGE_SNAPSHOT_CACHE,
  SNAPSHOT_PAGES,
  type StoredPage,
  shellScriptsOf,
  shellWithPage,
  stylesheetsOf,
  withStylesInline,
} from './snapshot.ts'

const SHELL = `<!doctype html><html lang="en" class="boxy niche-1"><head>
<script type="module" crossorigin src="/assets/runtime-R1.js"></script>
<script type="module" crossorigin src="/assets/main-AbC123.js"></script>
<link rel="stylesheet" crossorigin href="/assets/main-x.css"></head>
<body><div id="root"><div class="boot-skeleton" aria-hidden="true"></div></div>
<div id="teleports"></div></body></html>`

const page: StoredPage = {
  html: '<div class="boxy"><ul><li class="chat-list__item">Anna</li></ul></div>',
  shell: '/assets/runtime-R1.js /assets/main-AbC123.js',
  lang: 'de',
}

describe('the stored page in the shell', () => {
  it('names its cache and its two pages, /chats and /members, by the element of their first row', () => {
    expect(PAGE_SNAPSHOT_CACHE).toBe('amora-page-snapshots-v1')
    expect(SNAPSHOT_PAGES).toEqual({
      '/chats': '.chat-list__item',
      '/members': 'ul.grid li.tile',
    })
  })

  it("names the shell's version by its module scripts, in order", () => {
    expect(shellScriptsOf(SHELL)).toBe('/assets/runtime-R1.js /assets/main-AbC123.js')
    expect(shellScriptsOf('<script src="/classic.js"></script>')).toBe('')
  })

  it('writes the copy in front of the root as an inert layer hidden from screen readers, in its language', () => {
    const html = shellWithPage(SHELL, '/chats', page)!
    expect(html).toContain(
      `<div id="page-snapshot" inert aria-hidden="true" lang="de">${page.html}</div><div id="root">`,
    )
  })

  it("starts the shell's scripts, in their order, only after the stored page's first frame", () => {
    const html = shellWithPage(SHELL, '/chats', page)!
    expect(html).toContain(
      '<script type="module" src="/__stored-page/after-paint.js" data-after-paint="/assets/runtime-R1.js /assets/main-AbC123.js"></script>',
    )
    expect(html).not.toContain('<script type="module" crossorigin src=')
    // Fetched and compiled as early as before; only their running waits.
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/runtime-R1.js">')
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/main-AbC123.js">')
    // The rest of the shell is untouched: the app starts as it always does.
    const squeeze = (text: string) => text.replace(/\s+/g, ' ')
    const rest = html
      .replace(/<div id="page-snapshot".*?<\/div><\/div>/s, '')
      .replace(/<script type="module" src="\/__stored-page[^>]*><\/script>/, '')
      .replace(/<link rel="modulepreload"[^>]*>/g, '')
    const shellWithoutScripts = SHELL.replace(/<script type="module"[^>]*><\/script>/g, '')
    expect(squeeze(rest)).toBe(squeeze(shellWithoutScripts))
    // The starter waits for a frame, then imports each script in turn.
    expect(AFTER_PAINT_SCRIPT).toMatch(
      /requestAnimationFrame[\s\S]*for \(const source of sources\) await import\(source\)/,
    )
  })

  it('shows no copy painted by another version of the shell', () => {
    expect(
      shellWithPage(SHELL, '/chats', {
        ...page,
        shell: '/assets/runtime-R1.js /assets/main-Old9.js',
      }),
    ).toBe(undefined)
  })

  it('shows no copy on a page that keeps none, nor an empty one', () => {
    expect(shellWithPage(SHELL, '/likes', page)).toBeUndefined()
    expect(shellWithPage(SHELL, '/chats', { ...page, html: '' })).toBeUndefined()
  })

  it('writes no language that is not a language tag', () => {
    const html = shellWithPage(SHELL, '/members', { ...page, lang: 'x" onload="alert(1)' })!
    expect(html).toContain('<div id="page-snapshot" inert aria-hidden="true">')
    expect(html).not.toContain('onload')
  })
})

describe("the shell's stylesheet written in", () => {
  it('finds the stylesheet links', () => {
    expect(stylesheetsOf(SHELL)).toEqual(['/assets/main-x.css'])
  })

  it('writes each given stylesheet in place of its link, and keeps the others', () => {
    const two = SHELL.replace('</head>', '<link rel="stylesheet" href="/assets/other.css"></head>')
    const html = withStylesInline(two, new Map([['/assets/main-x.css', 'body{margin:0}']]))
    expect(html).toContain('<style data-href="/assets/main-x.css">body{margin:0}</style>')
    expect(html).not.toContain('<link rel="stylesheet" crossorigin href="/assets/main-x.css">')
    expect(html).toContain('<link rel="stylesheet" href="/assets/other.css">')
    // Other links (the manifest, icons) stay links.
    const manifest = '<link rel="manifest" href="/manifest.webmanifest">'
    expect(withStylesInline(manifest, new Map([['/manifest.webmanifest', '{}']]))).toBe(manifest)
  })

  it('keeps the link of a text that could end the style element', () => {
    const html = withStylesInline(SHELL, new Map([['/assets/main-x.css', 'a{}</style><b>']]))
    expect(html).toBe(SHELL)
  })
})
