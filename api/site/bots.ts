// Spec §2: bot user agents do not get the error page (the app), only the
// plain status. Crawlers, link previewers and command-line clients name
// themselves so; browsers (headless Chrome and Lighthouse included) do not.
// `cubot` is a phone brand, not a crawler.
const BOT_UA =
  /(?<!cu)bot\b|crawl|spider|slurp|facebookexternalhit|embedly|^curl\/|^wget\/|python-requests|go-http-client/i

export function isBot(userAgent: string | undefined): boolean {
  return userAgent !== undefined && BOT_UA.test(userAgent)
}
