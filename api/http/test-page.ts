// The pages of the built-in stand-ins for outside services (the test payment
// provider's checkout, the demo's test wallet): plain HTML with no script, so
// they fit a strict Content-Security-Policy, in the site's look
// (app/theme/tokens.css, classic template) in a few inline rules, and marked
// at the top for what they are. A card on the site's page colour, the
// brand's button for the action a real service would take, plain ones for the rest.
import { html } from 'hono/html'

type Html = ReturnType<typeof html>

const STYLE = html`
  :root { color-scheme: light; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1rem;
    box-sizing: border-box; background: #faf7f9; color: #1d1b20;
    font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
  .test-page { width: 100%; max-width: 26rem; background: #fff; border-radius: 16px;
    padding: 1.5rem; box-shadow: 0 6px 24px rgb(29 27 32 / 12%); }
  .test-page__banner { margin: 0 0 1rem; padding: 0.75rem; border-radius: 10px;
    background: #fff4e5; color: #5c3a00; font-size: 0.9rem; }
  h1 { margin: 0 0 0.5rem; font-size: 1.5rem; color: #8c0f40; }
  form p { margin: 0.5rem 0; }
  button { width: 100%; min-height: 44px; font: inherit; font-weight: 600; cursor: pointer;
    border-radius: 999px; border: 1px solid #c9c3cc; background: #fff; color: #1d1b20; }
  button.primary { background: #c2185b; border-color: #c2185b; color: #fff; }
  button:focus-visible, a:focus-visible { outline: 3px solid #8c0f40; outline-offset: 2px; }
  a { color: #8c0f40; }
  .test-page__site { display: flex; align-items: center; gap: 0.5rem; margin: 0 0 1rem;
    font-weight: 700; font-size: 1.125rem; color: #1d1b20; text-decoration: none; }
  .test-page__site svg { width: 1.5rem; height: 1.5rem; color: #c2185b; }
`

/**
 * The site's mark (the heart of app/ui/TopNav.tsx, lucide's "heart") and name
 * at the top, as a provider's hosted page names the merchant it serves.
 */
const siteHeader = (name: string) => html`<a class="test-page__site" href="/">
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"
    stroke-linejoin="round" aria-hidden="true"><path d="M19 14c1.49-1.46 3-3.21 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.76 0-3 .5-4.5 2-1.5-1.5-2.74-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4.05 3 5.5l7 7Z" /></svg>
  ${name}
</a>`

/** A stand-in's page: its title, the site's name when known, the test banner, then its body. */
export const testPage = (o: { title: string; site?: string; banner: Html; body: Html }) =>
  html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>${o.title}</title>
    <style>${STYLE}</style>
  </head>
  <body>
    <main class="test-page">
      ${o.site === undefined ? '' : siteHeader(o.site)}
      <p class="test-page__banner">${o.banner}</p>
      ${o.body}
    </main>
  </body>
</html>`
