// The stored page a repeat visit offline paints before any script has run
// (docs/performance.md, "Repeat visit offline": the page from the store at
// once). The page keeps a copy of what it last showed on a member's start
// pages (app/features/site/stored-page.ts); when the device is offline, the service
// worker writes that copy into the shell it answers the navigation with, as a
// layer over the app's root that the app takes away once its own render has
// the same content. Pure values and string work only: this module runs in the
// service worker, in the page and in Node tests.

/** Cache Storage name of the stored pages; logout deletes it with the member's pictures. */
export const PAGE_SNAPSHOT_CACHE = 'amora-page-snapshots-v1'

/** The element the stored page is painted in (app/styles.css lays it over the page). */
export const SNAPSHOT_ELEMENT_ID = 'page-snapshot'

/**
 * The pages with a stored copy, by path, and the element that says the app's
 * own render of that page is there (the layer goes then). Only a member's
 * usual start pages without a query: the ones the page also reads from the
 * store before the app starts (app/data/first-screen.ts).
 */
export const SNAPSHOT_PAGES: Readonly<Record<string, string>> = {
  '/chats': '.chat-list__item',
  '/members': 'ul.grid li.tile',
}

/** What a stored page carries beside its markup: what it must match to be shown. */
export interface StoredPage {
  /** The markup of the app's root as it was painted, without ids and names. */
  html: string
  /** The shell's scripts it was painted by (shellScriptsOf): a new version's shell shows no old copy. */
  shell: string
  /** The page's language (the layer says it; a screen reader is kept off it anyway). */
  lang: string
}

/** Headers of the cached Response that carry StoredPage's fields beside the markup. */
export const SNAPSHOT_HEADERS = { shell: 'x-snapshot-shell', lang: 'x-snapshot-lang' } as const

/** The value of attribute `name` in a tag's attribute text, or undefined. */
const attributeOf = (attrs: string, name: string) =>
  new RegExp(`\\b${name}="([^"]+)"`).exec(attrs)?.[1]

/**
 * The shell's module scripts (`/assets/shell-<hash>.js` and the chunks it
 * starts with), space-separated in document order: a new build's shell has
 * other names.
 */
export function shellScriptsOf(html: string): string {
  const sources: string[] = []
  for (const [, attrs = ''] of html.matchAll(/<script\b([^>]*)>/g)) {
    const src = attributeOf(attrs, 'src')
    if (attributeOf(attrs, 'type') === 'module' && src) sources.push(src)
  }
  return sources.join(' ')
}

const LANG = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/

/**
 * The shell with the stored page written in front of its root, or undefined
 * when the copy must not be shown: painted by another version of the shell,
 * for a path without a stored page, or in a shell without the root element.
 * The layer is inert and hidden from assistive technology: it is a picture
 * of the page for the moments before the app's own page is there.
 */
export function shellWithPage(shell: string, path: string, page: StoredPage): string | undefined {
  if (!(path in SNAPSHOT_PAGES) || page.html === '') return undefined
  if (page.shell === '' || shellScriptsOf(shell) !== page.shell) return undefined
  const at = shell.indexOf('<div id="root">')
  if (at < 0) return undefined
  const lang = LANG.test(page.lang) ? ` lang="${page.lang}"` : ''
  const layer = `<div id="${SNAPSHOT_ELEMENT_ID}" inert aria-hidden="true"${lang}>${page.html}</div>`
  return withScriptsAfterPaint(shell.slice(0, at) + layer + shell.slice(at))
}

/**
 * Where the shell's scripts are started from once the stored page has been
 * painted: an answer of the service worker itself (AFTER_PAINT_SCRIPT).
 */
export const AFTER_PAINT_URL = '/__stored-page/after-paint.js'

/**
 * Starts the shell's module scripts (named by its script element's
 * data-after-paint, in order) after the next frame. The browser runs module
 * scripts that are already at hand right after the HTML is parsed, before
 * it paints: the stored page would show only after the shell's 50-150 ms of
 * evaluation. A module script itself (the site's policy allows scripts of
 * the site only, no inline one).
 */
export const AFTER_PAINT_SCRIPT = `const element = document.querySelector('script[data-after-paint]')
const sources = (element?.dataset.afterPaint ?? '').split(' ').filter(Boolean)
await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)))
for (const source of sources) await import(source)
`

/**
 * The shell with its module scripts started by AFTER_PAINT_URL instead, each
 * preloaded where it stood, so it is fetched and compiled as early as before
 * and only its evaluation waits for the frame.
 */
function withScriptsAfterPaint(html: string): string {
  const sources = shellScriptsOf(html)
  if (sources === '') return html
  const starter = `<script type="module" src="${AFTER_PAINT_URL}" data-after-paint="${sources}"></script>`
  let first = true
  return html.replace(/<script\b([^>]*)><\/script>/g, (script, attrs: string) => {
    const src = attributeOf(attrs, 'src')
    if (attributeOf(attrs, 'type') !== 'module' || src === undefined) return script
    const preload = `<link rel="modulepreload" crossorigin href="${src}">`
    const replacement = first ? starter + preload : preload
    first = false
    return replacement
  })
}

/** The hrefs of the shell's stylesheet links, in document order. */
export function stylesheetsOf(html: string): string[] {
  const hrefs: string[] = []
  for (const [, attrs = ''] of html.matchAll(/<link\b([^>]*)>/g)) {
    const href = attributeOf(attrs, 'href')
    if (attributeOf(attrs, 'rel') === 'stylesheet' && href) hrefs.push(href)
  }
  return hrefs
}

/**
 * The shell with each stylesheet link whose text is given written in as a
 * style element: the stored page paints as soon as the HTML is parsed, not
 * after another fetch through the service worker, and before the shell's
 * scripts arrive and hold the main thread. A text that could end the style
 * element early keeps its link.
 */
export function withStylesInline(html: string, sheets: ReadonlyMap<string, string>): string {
  return html.replace(/<link\b([^>]*)>/g, (link, attrs: string) => {
    const href = attributeOf(attrs, 'href')
    const css = href === undefined ? undefined : sheets.get(href)
    if (attributeOf(attrs, 'rel') !== 'stylesheet' || css === undefined || /<\/style/i.test(css))
      return link
    return `<style data-href="${href}">${css}</style>`
  })
}
