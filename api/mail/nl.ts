import {
  complaintOf as c,
  type LocaleTemplates,
  type MailVars,
  messageOf as m,
  statementOf as s,
} from './types.ts'

const rules: Record<string, string> = {
  harassment: `intimidatie`,
  spam_scam: `spam of oplichting`,
  fake_profile: `nepprofielen`,
  explicit_content: `expliciete inhoud`,
  underage: `leden onder de 18`,
  other: `onze gebruiksvoorwaarden`,
}
const whats: Record<string, (v: MailVars) => string> = {
  warn: () => `We geven je een formele waarschuwing.`,
  suspend: (v) =>
    `We hebben je account geschorst tot ${s(v).ends} (UTC). Tot dan kun je niet inloggen.`,
  ban: () => `We hebben je account definitief gesloten (ban).`,
  remove_photo: () => `We hebben een foto van je profiel verwijderd.`,
  remove_text: () => `We hebben de tekst van je profiel verwijderd.`,
}
const whatOf = (v: MailVars) => whats[s(v).kind]?.(v) ?? ''

/** Dutch. */
export const nl: LocaleTemplates = {
  activate: (v) => ({
    subject: `Activeer je ${v.site}-account`,
    lines: [
      `Hallo ${v.name},`,
      `Welkom bij ${v.site}! Bevestig je e-mailadres om je account te activeren.`,
      'De link werkt één keer en verloopt na 7 dagen.',
      'Heb je je niet aangemeld? Dan kun je deze mail negeren.',
    ],
    action: { label: 'Activeer mijn account', url: v.link },
  }),
  signup_exists: (v) => ({
    subject: `Aanmeldpoging bij ${v.site}`,
    lines: [
      `Hallo ${v.name},`,
      `Iemand probeerde een nieuw ${v.site}-account aan te maken met dit adres, maar er bestaat al een account mee.`,
      'Was jij dat? Log dan in; wachtwoord vergeten? Dat kun je via de inlogpagina opnieuw instellen.',
      'Was jij het niet? Dan kun je deze mail negeren: er is niets veranderd.',
    ],
    action: { label: 'Inloggen', url: v.link },
  }),
  reset: (v) => ({
    subject: `Stel een nieuw ${v.site}-wachtwoord in`,
    lines: [
      `Hallo ${v.name},`,
      'We kregen een verzoek om je wachtwoord opnieuw in te stellen. Kies een nieuw wachtwoord via de link hieronder.',
      'De link werkt één keer en verloopt na 1 uur. Met een nieuw wachtwoord word je overal elders uitgelogd.',
      'Heb je dit niet gevraagd? Negeer deze mail: je wachtwoord blijft hetzelfde.',
    ],
    action: { label: 'Kies een nieuw wachtwoord', url: v.link },
  }),
  login_unlock: (v) => ({
    subject: `Inloggen bij ${v.site} is tijdelijk geblokkeerd`,
    lines: [
      `Hallo ${v.name},`,
      `Er is te vaak geprobeerd met een verkeerd wachtwoord in te loggen op je ${v.site}-account. Daarom is inloggen op dit account een tijdje geblokkeerd, ook voor jou.`,
      'Was jij dat? Met de knop hieronder kun je meteen weer inloggen. De link werkt één keer en verloopt na 1 uur.',
      'Was jij het niet? Dan probeert iemand misschien je wachtwoord te raden. Zonder je wachtwoord komt niemand binnen. Gebruik je het ook ergens anders, of is het kort? Kies dan een nieuw wachtwoord via ‘Wachtwoord vergeten?’ op de inlogpagina.',
    ],
    action: { label: 'Nu weer inloggen', url: v.link },
  }),
  staff_unlock: (v) => ({
    subject: `Inloggen op de console van ${v.site} is tijdelijk geblokkeerd`,
    lines: [
      `Hallo ${v.name},`,
      `Er is te vaak zonder succes geprobeerd met jouw account in te loggen op de console van ${v.site}. Daarom is inloggen met dit account een tijdje geblokkeerd, ook voor jou.`,
      'Was jij dat? Met de knop hieronder kun je meteen weer inloggen (met je wachtwoord en de code uit je authenticator-app). De link werkt één keer en verloopt na 1 uur.',
      'Was jij het niet? Dan probeert iemand misschien met jouw account in de console te komen: laat het een beheerder weten.',
    ],
    action: { label: 'Nu weer inloggen', url: v.link },
  }),
  mail_change_confirm: (v) => ({
    subject: `Bevestig je nieuwe e-mailadres voor ${v.site}`,
    lines: [
      `Hallo ${v.name},`,
      `Bevestig dat ${v.newEmail ?? 'dit adres'} het nieuwe e-mailadres van je ${v.site}-account is.`,
      'Je adres verandert pas als je deze link volgt. Hij werkt één keer en verloopt na 24 uur.',
    ],
    action: { label: 'Bevestig mijn nieuwe adres', url: v.link },
  }),
  mail_change_notice: (v) => ({
    subject: `Je ${v.site}-e-mailadres gaat veranderen`,
    lines: [
      `Hallo ${v.name},`,
      `Er is gevraagd het e-mailadres van je account te wijzigen in ${v.newEmail ?? 'een nieuw adres'}. Dat gebeurt zodra het nieuwe adres is bevestigd.`,
      'Klopt dit adres niet, of heb je dit niet gevraagd? Laat het ons weten.',
    ],
    action: { label: 'Dit klopt niet', url: v.link },
  }),
  mail_change_taken: (v) => ({
    subject: `Poging tot adreswijziging bij ${v.site}`,
    lines: [
      'Hallo,',
      `Iemand vroeg een ander ${v.site}-account naar dit adres te verplaatsen, maar er bestaat al een account mee. Er is niets veranderd.`,
      'Was jij dat? Log dan in met dit adres.',
    ],
    action: { label: 'Inloggen', url: v.link },
  }),
  report: (v) => ({
    subject: `Melding #${v.report?.id} bij ${v.site}: ${v.report?.reason}`,
    lines: [
      `Lid ${v.report?.reporter} heeft lid ${v.report?.reported} gemeld wegens: ${v.report?.reason}.`,
      `Toelichting: ${v.report?.text || '(geen)'}`,
      'Bekijk het profiel en, als er een bericht is gemeld, het gesprek eromheen.',
    ],
    action: { label: 'Gemeld profiel openen', url: v.link },
  }),
  complaint_receipt: (v) => ({
    subject: `We hebben je klacht ${c(v).reference} bij ${v.site} ontvangen`,
    lines: [
      `Hallo ${v.name},`,
      `We hebben je klacht bij ${v.site} ontvangen. Het kenmerk is ${c(v).reference}; vermeld het als je ons erover schrijft.`,
      `We bekijken elke melding zorgvuldig en antwoorden per e-mail, in de regel binnen 7 dagen. Ondernemen we actie, dan laten we je weten wat we deden en waarom.`,
      `Heb je dit niet verstuurd? Dan kun je deze mail negeren.`,
    ],
    action: { label: `Klachten en bezwaren bij ${v.site}`, url: v.link },
  }),
  complaint: (v) => ({
    subject: `Klacht ${c(v).reference} bij ${v.site}: ${c(v).subject}`,
    lines: [
      `Via het klachtenformulier kwam een ${c(v).kind} binnen.`,
      `Van: ${c(v).name} <${c(v).email}>${c(v).member ? ` (lid ${c(v).member})` : ''}`,
      `Waar: ${c(v).url || '-'}`,
      `Wat en waarom:`,
      `${c(v).text}`,
      `De afzender verklaarde te goeder trouw te handelen. Antwoord per mail met kenmerk ${c(v).reference}.`,
    ],
    action: { label: 'Link van de klacht openen', url: v.link },
  }),
  receipt: (v) => {
    const r = v.receipt ?? { credits: 0, amount: '', balance: 0, transaction: '' }
    return {
      subject: `Je ${v.site}-bon: ${r.credits} credits`,
      lines: [
        `Hallo ${v.name},`,
        `Bedankt voor je aankoop. Er zijn ${r.credits} credits aan je account toegevoegd voor ${r.amount}.`,
        `Je saldo is nu ${r.balance} credits.`,
        `Transactie: ${r.transaction}`,
      ],
      action: { label: 'Bekijk de transactie', url: v.link },
    }
  },
  new_message: (v) => ({
    subject: `${m(v).sender} heeft je een bericht gestuurd op ${v.site}`,
    lines: [
      `Hallo ${v.name},`,
      `${m(v).sender} heeft je een nieuw bericht gestuurd op ${v.site}.`,
      'Log in om het te lezen en te antwoorden. Zolang je het niet gelezen hebt, mailen we je niet opnieuw over dit gesprek.',
    ],
    action: { label: 'Lees het bericht', url: v.link },
    optOut: {
      label: 'Liever geen mails hierover? Zet "Nieuwe berichten" uit bij je meldingen',
      url: m(v).settings,
    },
  }),
  statement_of_reasons: (v) => ({
    subject: `Besluit over je account bij ${v.site}`,
    lines: [
      `Hallo ${v.name},`,
      whatOf(v),
      `De regel waar het om gaat: ${rules[s(v).rule] ?? s(v).rule}.`,
      `Feiten en redenen: ${s(v).reason}`,
      `Dit besluit is genomen door een medewerker van ons moderatieteam; er is geen geautomatiseerd middel gebruikt om het te signaleren of te beslissen.`,
      `Je kunt binnen 6 maanden kosteloos bezwaar maken via de link hieronder (of op de klachtenpagina, met "bezwaar tegen een besluit"). Een andere moderator beoordeelt je bezwaar; je kunt je ook wenden tot een buitengerechtelijke geschillencommissie of de rechter.`,
    ],
    action: { label: `Bezwaar maken`, url: v.link },
  }),
  report_decision: (v) => ({
    subject: `Je melding bij ${v.site}: ons besluit`,
    lines: [
      `Hallo ${v.name},`,
      `Bedankt voor je melding. We hebben haar bekeken.`,
      v.decision?.acted
        ? `We hebben maatregelen genomen tegen de inhoud of het lid in kwestie.`
        : `We hebben geen overtreding van onze regels gevonden en daarom niets gedaan.`,
      `Ben je het niet eens met dit besluit, dan kun je het aanvechten via de link hieronder.`,
    ],
    action: { label: `Besluit aanvechten`, url: v.link },
  }),
  appeal_decision: (v) => ({
    subject: `Je bezwaar bij ${v.site}: besluit`,
    lines: [
      `Hallo ${v.name},`,
      `Een andere moderator heeft je bezwaar beoordeeld.`,
      whatOf(v),
      v.appeal?.outcome === 'lifted'
        ? `We hebben het besluit ingetrokken.${s(v).kind === 'suspend' || s(v).kind === 'ban' ? ` Je kunt weer inloggen.` : ''}`
        : `We houden het besluit in stand.`,
      `Redenen: ${v.appeal?.reason ?? ''}`,
      `Ben je het er nog steeds niet mee eens, dan kun je je wenden tot een erkende buitengerechtelijke geschillencommissie of de rechter.`,
    ],
    action: { label: `Inloggen`, url: v.link },
  }),
}
