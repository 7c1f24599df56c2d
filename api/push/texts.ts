// Notification texts (spec §3 supported locales), Paraglide messages
// `push_<kind>_<part>` in messages/*.json read on the server, like the mails:
// a push is written in the recipient's language, which the browser showing it
// does not know. Each locale keeps the register its mails use (de Sie, fr
// vous, it Lei, es usted, nl je, pl neutral); Polish verbs agree with the
// sender's gender (a variant of push_like_body). The messages are imported one
// by one: messages/paraglide/messages.js would load every text of the app.
import { push_like_body } from '../../messages/paraglide/messages/push_like_body.js'
import { push_like_title } from '../../messages/paraglide/messages/push_like_title.js'
import { push_message_no_text } from '../../messages/paraglide/messages/push_message_no_text.js'
import { push_message_title } from '../../messages/paraglide/messages/push_message_title.js'
import { push_photo_body } from '../../messages/paraglide/messages/push_photo_body.js'
import { push_voice_body } from '../../messages/paraglide/messages/push_voice_body.js'
import { push_test_body } from '../../messages/paraglide/messages/push_test_body.js'
import { push_test_title } from '../../messages/paraglide/messages/push_test_title.js'
import { push_visit_body } from '../../messages/paraglide/messages/push_visit_body.js'
import { push_visit_title } from '../../messages/paraglide/messages/push_visit_title.js'
import { Locale } from '../contract/index.ts'

export interface PushTextVars {
  /** The other member's name. */
  name: string
  /** 'male' | 'female' (members.gender); Polish verbs agree with it. */
  gender?: string | undefined
}

export interface PushTexts {
  /** Title of a new message; its body is the message preview. */
  messageTitle(v: PushTextVars): string
  /** Body of a message without text (the preview would be empty). */
  messageNoText: string
  /** Body of a photo message: "{name} sent you a photo." */
  photoBody(v: PushTextVars): string
  /** Body of a voice message: "{name} sent you a voice message." */
  voiceBody(v: PushTextVars): string
  likeTitle: string
  likeBody(v: PushTextVars): string
  /** A visit to the member's profile (sent only when they asked for it). */
  visitTitle: string
  visitBody(v: PushTextVars): string
  /** The test notification a member sends from /notifications. */
  testTitle: string
  testBody: string
}

function textsIn(locale: Locale): PushTexts {
  const o = { locale }
  return {
    messageTitle: (v) => push_message_title({ name: v.name }, o),
    messageNoText: push_message_no_text({}, o),
    photoBody: (v) => push_photo_body({ name: v.name, gender: v.gender ?? '' }, o),
    voiceBody: (v) => push_voice_body({ name: v.name, gender: v.gender ?? '' }, o),
    likeTitle: push_like_title({}, o),
    likeBody: (v) => push_like_body({ name: v.name, gender: v.gender ?? '' }, o),
    visitTitle: push_visit_title({}, o),
    visitBody: (v) => push_visit_body({ name: v.name, gender: v.gender ?? '' }, o),
    testTitle: push_test_title({}, o),
    testBody: push_test_body({}, o),
  }
}

export const PUSH_TEXTS = Object.fromEntries(
  Locale.options.map((locale) => [locale, textsIn(locale)]),
) as Record<Locale, PushTexts>

/** The texts of a locale; an unknown or missing one falls back to English. */
export function pushTexts(locale: string | null | undefined): { locale: Locale; texts: PushTexts } {
  const known = Locale.safeParse(locale)
  return known.success
    ? { locale: known.data, texts: PUSH_TEXTS[known.data] }
    : { locale: 'en', texts: PUSH_TEXTS.en }
}
