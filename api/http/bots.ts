// Who is asking, by the User-Agent: the one list of what is not a person's
// browser, for the two questions the server asks of it.
//
// - isBot: a client that names itself a crawler, link previewer, scraper,
//   command-line or HTTP library. Spec §2: on a path no page matches it gets
//   the plain 404, not the app's error page (api/server.ts).
// - isAutomated: a bot, a browser driven by a program (headless Chrome,
//   Lighthouse and PageSpeed, PhantomJS, Selenium, Puppeteer, Playwright), or
//   a request without a User-Agent. A lander visit from one is not counted
//   (api/traffic/visits.ts). Driven browsers are no bots: they render the app
//   like a person's, so the page server answers them with it (Lighthouse
//   audits the error page, the end-to-end tests run headless).
//
// The bot patterns are the union of the two lists these questions had: the
// visit counter's HTTP libraries (python, okhttp, java/, axios...), `scrap`
// and `preview` hold for the page server too (none of them shows a page), and
// the page server's `embedly` and its `cubot` exception (a phone brand, whose
// visits were not counted) hold for the visit counter.
const BOT_UA =
  /(?<!cu)bot|crawl|spider|slurp|scrap|preview|facebookexternalhit|embedly|curl|wget|python|httpclient|okhttp|java\/|go-http|node-fetch|axios/i

/** Browsers a program drives: they render pages, but no person looks. */
const DRIVEN_BROWSER_UA = /headless|lighthouse|page ?speed|phantom|selenium|puppeteer|playwright/i

/** A crawler, previewer or HTTP client by its own name; a missing User-Agent is not one. */
export function isBot(userAgent: string | undefined): boolean {
  return userAgent !== undefined && BOT_UA.test(userAgent)
}

/** No person at the keyboard: a bot, a driven browser, or no User-Agent at all. */
export function isAutomated(userAgent: string | undefined): boolean {
  return !userAgent || isBot(userAgent) || DRIVEN_BROWSER_UA.test(userAgent)
}
