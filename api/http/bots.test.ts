// The User-Agent rule of api/http/bots.ts, pinned with agents as sent: what the
// page server answers with a plain 404 (isBot) and what a lander visit does
// not count (isAutomated).
import { describe, expect, it } from 'vitest'
import { isAutomated, isBot } from './bots.ts'

/** People's browsers: the app, and their visits count. */
const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  // CUBOT is a phone brand, not a crawler.
  'Mozilla/5.0 (Linux; Android 12; CUBOT X30) Chrome/120.0 Mobile Safari/537.36',
]

/** Crawlers, link previewers, scrapers and HTTP clients: the plain status, and no visit. */
const BOTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Googlebot-Image/1.0',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0) BingPreview/1.0b',
  'Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)',
  'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
  'CCBot/2.0 (https://commoncrawl.org/faq/)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Twitterbot/1.0',
  'Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)',
  'Scrapy/2.11.0 (+https://scrapy.org)',
  'curl/8.5.0',
  'Wget/1.21.4',
  'python-requests/2.31.0',
  'Python-urllib/3.12',
  'Go-http-client/2.0',
  'okhttp/4.12.0',
  'Apache-HttpClient/4.5.14 (Java/17.0.9)',
  'Java/1.8.0_392',
  'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
  'axios/1.7.9',
]

/** Browsers a program drives, and no User-Agent: the app, but no visit. */
const DRIVEN = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Google Page Speed Insights',
  'Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1',
  'Mozilla/5.0 (X11; Linux x86_64) Selenium/4.27 Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 Puppeteer Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 Playwright/1.49 Firefox/132.0',
  '',
  undefined,
]

describe('isBot', () => {
  it.each(BOTS)('a bot: %s', (ua) => expect(isBot(ua)).toBe(true))
  it.each(BROWSERS)('a browser: %s', (ua) => expect(isBot(ua)).toBe(false))
  it.each(DRIVEN)('a driven browser or none, not a bot: %s', (ua) => expect(isBot(ua)).toBe(false))
})

describe('isAutomated', () => {
  it.each([...BOTS, ...DRIVEN])('no person: %s', (ua) => expect(isAutomated(ua)).toBe(true))
  it.each(BROWSERS)('a person: %s', (ua) => expect(isAutomated(ua)).toBe(false))
})
