// Notification texts per locale (spec §3 supported locales). Server side, like
// the mail templates: a push is written in the recipient's language, which the
// browser showing it does not know. Each locale keeps the register its mails
// use (de Sie, fr vous, it Lei, es usted, nl je, pl neutral).
import type { Locale } from '../contract/index.ts'

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
  likeTitle: string
  likeBody(v: PushTextVars): string
  /** The test notification a member sends from /notifications. */
  testTitle: string
  testBody: string
}

export const PUSH_TEXTS: Record<Locale, PushTexts> = {
  en: {
    messageTitle: (v) => `New message from ${v.name}`,
    messageNoText: 'Open the chat to read it.',
    likeTitle: 'New like',
    likeBody: (v) => `${v.name} likes you.`,
    testTitle: 'Notifications are on',
    testBody: 'This is how new messages and likes will reach you.',
  },
  nl: {
    messageTitle: (v) => `Nieuw bericht van ${v.name}`,
    messageNoText: 'Open de chat om het te lezen.',
    likeTitle: 'Nieuwe like',
    likeBody: (v) => `${v.name} vindt je leuk.`,
    testTitle: 'Meldingen staan aan',
    testBody: 'Zo krijg je voortaan nieuwe berichten en likes te zien.',
  },
  de: {
    messageTitle: (v) => `Neue Nachricht von ${v.name}`,
    messageNoText: 'Öffnen Sie den Chat, um sie zu lesen.',
    likeTitle: 'Neues Like',
    likeBody: (v) => `Ihr Profil gefällt ${v.name}.`,
    testTitle: 'Benachrichtigungen sind aktiv',
    testBody: 'So erreichen Sie neue Nachrichten und Likes.',
  },
  it: {
    messageTitle: (v) => `Nuovo messaggio da ${v.name}`,
    messageNoText: 'Apra la chat per leggerlo.',
    likeTitle: 'Nuovo «Mi piace»',
    likeBody: (v) => `${v.name} ha messo «Mi piace» al suo profilo.`,
    testTitle: 'Le notifiche sono attive',
    testBody: 'Così le arriveranno i nuovi messaggi e «Mi piace».',
  },
  fr: {
    messageTitle: (v) => `Nouveau message de ${v.name}`,
    messageNoText: 'Ouvrez la conversation pour le lire.',
    likeTitle: 'Nouveau « J’aime »',
    likeBody: (v) => `${v.name} a aimé votre profil.`,
    testTitle: 'Les notifications sont activées',
    testBody: 'C’est ainsi que vous recevrez les nouveaux messages et « J’aime ».',
  },
  es: {
    messageTitle: (v) => `Nuevo mensaje de ${v.name}`,
    messageNoText: 'Abra el chat para leerlo.',
    likeTitle: 'Nuevo «Me gusta»',
    likeBody: (v) => `A ${v.name} le gusta su perfil.`,
    testTitle: 'Las notificaciones están activadas',
    testBody: 'Así le llegarán los nuevos mensajes y «Me gusta».',
  },
  pl: {
    // "od: X" keeps the name in the nominative: names are never declined.
    messageTitle: (v) => `Nowa wiadomość od: ${v.name}`,
    messageNoText: 'Wiadomość czeka w czacie.',
    likeTitle: 'Nowe polubienie',
    likeBody: (v) =>
      v.gender === 'female'
        ? `${v.name} polubiła Twój profil.`
        : v.gender === 'male'
          ? `${v.name} polubił Twój profil.`
          : `Nowe polubienie Twojego profilu od: ${v.name}.`,
    testTitle: 'Powiadomienia są włączone',
    testBody: 'Tak będą docierać do Ciebie nowe wiadomości i polubienia.',
  },
}

/** The texts of a locale; an unknown or missing one falls back to English. */
export function pushTexts(locale: string | null | undefined): { locale: Locale; texts: PushTexts } {
  const known = (Object.keys(PUSH_TEXTS) as Locale[]).find((l) => l === locale)
  return known
    ? { locale: known, texts: PUSH_TEXTS[known] }
    : { locale: 'en', texts: PUSH_TEXTS.en }
}
