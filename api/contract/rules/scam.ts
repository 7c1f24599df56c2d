// Scam signals in a message's text: the rules both ends apply (zod-free, so
// the chat page may use them). A message that asks to move off the site
// (a link, a phone number, an e-mail address, a messenger) or to pay (payment
// words) gets a warning for its recipient in the chat. Tuned on the demo
// seed's chat lines (db/seed/names.ts): none of them fires a signal
// (api/chats/scam-signals.test.ts counts them). A false alarm is worse than a
// slow scammer, so each rule wants an unmistakable form: a phone number needs
// 9 digits or more, a link a scheme, `www.` or a known top-level domain,
// a payment word is a payment service or a phrase about sending money, never
// "pay" alone ("I'll pay for the coffee" is a date, not a scam).
// Documented in docs/messages-and-credits.md.

export const SCAM_SIGNALS = ['link', 'phone', 'email', 'messenger', 'payment'] as const
export type ScamSignal = (typeof SCAM_SIGNALS)[number]

/** Digits (with spaces, dots, dashes, brackets between) that make a phone number: at least this many. */
export const PHONE_MIN_DIGITS = 9

const LINK =
  /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]{2,}\.(?:com|net|org|info|biz|io|me|ly|link|xyz|site|online|top|ru|tk|app)\b(?:\/\S*)?/i
const EMAIL = /\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b/i
/** A run of digits and separators; its digits are counted. */
const DIGIT_RUN = /\+?\(?\d[\d\s().-]{6,}\d/g
/** Apps people are asked to move to (the usual first step of a romance scam). */
const MESSENGER =
  /\b(?:whats\s?app|telegram|snapchat|snap\s?chat|kik|wechat|viber|hangouts|skype|signal\s+app|line\s+id|insta(?:gram)?\s*(?:id|dm|handle))\b/i
/** Payment services and phrases about sending money, in the site's seven languages. */
const PAYMENT =
  /\b(?:western\s?union|moneygram|bitcoin|btc|crypto|usdt|gift\s?cards?|steam\s?cards?|itunes\s?cards?|google\s?play\s?cards?|paysafe(?:card)?|cash\s?app|venmo|zelle|revolut|iban|send\s+(?:me\s+)?(?:the\s+)?money|wire\s+(?:me\s+)?(?:the\s+)?money|bank\s?transfer|geld\s+(?:over)?maken|overmaken|geld\s+(?:über)?weisen|überweis\w*|bonifico|ricarica|virement|mandat\s+cash|transferencia|envíame\s+dinero|przelew\w*|wyślij\s+pieniądze|blik\s+kod)\b/i

/** The signals a message's text fires, each once, in SCAM_SIGNALS order. */
export function messageSignals(text: string): ScamSignal[] {
  const found = new Set<ScamSignal>()
  if (EMAIL.test(text)) found.add('email')
  // An address's domain is not also a link.
  if (LINK.test(text.replace(EMAIL, ' '))) found.add('link')
  for (const run of text.match(DIGIT_RUN) ?? [])
    if (run.replace(/\D/g, '').length >= PHONE_MIN_DIGITS) found.add('phone')
  if (MESSENGER.test(text)) found.add('messenger')
  if (PAYMENT.test(text)) found.add('payment')
  return SCAM_SIGNALS.filter((s) => found.has(s))
}

/** What the recipient is warned of: moving off the site, paying, or nothing. */
export function scamWarning(text: string): 'off_site' | 'payment' | null {
  const signals = messageSignals(text)
  if (signals.includes('payment')) return 'payment'
  return signals.length > 0 ? 'off_site' : null
}

// The server's signals on the first message of a conversation (the message
// that opens it), applied by api/chats/scam-cases.ts. Tuned so that nothing
// fires on the demo seed (api/chats/scam-cases.test.ts): there the demo
// member opens a conversation about once a day, each with another line.

/** A first message whose text fires a signal above, or from a member this many members reported, is held for a moderator. */
export const REPORTS_TO_HOLD = 3
/** Reports older than this many days no longer count toward REPORTS_TO_HOLD. */
export const REPORTS_WINDOW_DAYS = 30
/** The same (normalised) first text to this many members within DUPLICATE_WINDOW_HOURS: the next one is refused (429). */
export const DUPLICATE_RECIPIENTS = 5
export const DUPLICATE_WINDOW_HOURS = 24
/** An account younger than NEW_ACCOUNT_DAYS that opened this many conversations within the last hour is refused the next (429). */
export const BURST_FIRST_MESSAGES = 10
export const NEW_ACCOUNT_DAYS = 7

/**
 * A first message's text as the duplicate rule compares it: lower case,
 * letters and digits only (so punctuation, spacing and emoji do not make a
 * copy new), names of the recipient aside.
 */
export const normaliseFirstText = (text: string): string =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '')
