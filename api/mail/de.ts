import {
  complaintOf as c,
  type LocaleTemplates,
  type MailVars,
  messageOf as m,
  statementOf as s,
} from './types.ts'

const rules: Record<string, string> = {
  harassment: `Belästigung`,
  spam_scam: `Spam oder Betrug`,
  fake_profile: `Fake-Profile`,
  explicit_content: `explizite Inhalte`,
  underage: `Mitglieder unter 18`,
  other: `unsere Nutzungsbedingungen`,
}
const whats: Record<string, (v: MailVars) => string> = {
  warn: () => `Wir erteilen dir eine förmliche Verwarnung.`,
  suspend: (v) =>
    `Wir haben dein Konto bis zum ${s(v).ends} (UTC) gesperrt. Bis dahin kannst du dich nicht anmelden.`,
  ban: () => `Wir haben dein Konto dauerhaft geschlossen (Sperre).`,
  remove_photo: () => `Wir haben ein Foto aus deinem Profil entfernt.`,
  remove_text: () => `Wir haben den Text deines Profils entfernt.`,
}
const whatOf = (v: MailVars) => whats[s(v).kind]?.(v) ?? ''

/** German (formal: Sie). After the salutation's comma the next paragraph starts lowercase. */
export const de: LocaleTemplates = {
  activate: (v) => ({
    subject: `Aktivieren Sie Ihr ${v.site}-Konto`,
    lines: [
      `Hallo ${v.name},`,
      `willkommen bei ${v.site}! Bitte bestätigen Sie Ihre E-Mail-Adresse, um Ihr Konto zu aktivieren.`,
      'Der Link kann nur einmal verwendet werden und ist 7 Tage lang gültig.',
      'Falls Sie sich nicht registriert haben, können Sie diese E-Mail ignorieren.',
    ],
    action: { label: 'Mein Konto aktivieren', url: v.link },
  }),
  signup_exists: (v) => ({
    subject: `Registrierungsversuch bei ${v.site}`,
    lines: [
      `Hallo ${v.name},`,
      `jemand hat versucht, mit dieser Adresse ein neues ${v.site}-Konto anzulegen. Für diese Adresse besteht jedoch bereits ein Konto.`,
      'Falls Sie das waren, melden Sie sich bitte stattdessen an. Wenn Sie Ihr Passwort vergessen haben, können Sie es über die Anmeldeseite zurücksetzen.',
      'Falls nicht, können Sie diese E-Mail ignorieren: Es wurde nichts geändert.',
    ],
    action: { label: 'Anmelden', url: v.link },
  }),
  reset: (v) => ({
    subject: `Ihr ${v.site}-Passwort zurücksetzen`,
    lines: [
      `Hallo ${v.name},`,
      'wir haben eine Anfrage erhalten, Ihr Passwort zurückzusetzen. Über den folgenden Link können Sie ein neues Passwort festlegen.',
      'Der Link kann nur einmal verwendet werden und ist 1 Stunde lang gültig. Sobald Sie ein neues Passwort festlegen, werden Sie überall sonst abgemeldet.',
      'Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail einfach: Ihr Passwort bleibt unverändert.',
    ],
    action: { label: 'Neues Passwort festlegen', url: v.link },
  }),
  login_unlock: (v) => ({
    subject: `Anmeldung bei ${v.site} vorübergehend gesperrt`,
    lines: [
      `Hallo ${v.name},`,
      `für Ihr ${v.site}-Konto gab es zu viele Anmeldeversuche mit falschem Passwort. Deshalb ist die Anmeldung bei diesem Konto eine Zeit lang gesperrt – auch für Sie.`,
      'Waren Sie das? Dann können Sie sich über die Schaltfläche unten sofort wieder anmelden. Der Link kann nur einmal verwendet werden und ist 1 Stunde lang gültig.',
      'Waren Sie das nicht? Dann versucht vielleicht jemand, Ihr Passwort zu erraten. Ohne Ihr Passwort kommt niemand in Ihr Konto. Wenn Sie es auch anderswo verwenden oder es kurz ist, legen Sie über „Passwort vergessen?“ auf der Anmeldeseite ein neues fest.',
    ],
    action: { label: 'Jetzt wieder anmelden', url: v.link },
  }),
  staff_unlock: (v) => ({
    subject: `Anmeldung an der ${v.site}-Konsole vorübergehend gesperrt`,
    lines: [
      `Hallo ${v.name},`,
      `es gab zu viele fehlgeschlagene Versuche, sich mit deinem Konto an der Konsole von ${v.site} anzumelden. Deshalb ist die Anmeldung mit diesem Konto eine Zeit lang gesperrt – auch für dich.`,
      'Warst du das? Dann kannst du dich über die Schaltfläche unten sofort wieder anmelden (mit deinem Passwort und dem Code aus deiner Authenticator-App). Der Link kann nur einmal verwendet werden und ist 1 Stunde lang gültig.',
      'Warst du das nicht? Dann versucht vielleicht jemand, mit deinem Konto in die Konsole zu gelangen: Bitte sag einem Admin Bescheid.',
    ],
    action: { label: 'Jetzt wieder anmelden', url: v.link },
  }),
  mail_change_confirm: (v) => ({
    subject: `Bestätigen Sie Ihre neue E-Mail-Adresse für ${v.site}`,
    lines: [
      `Hallo ${v.name},`,
      `bitte bestätigen Sie, dass ${v.newEmail ?? 'diese Adresse'} die neue E-Mail-Adresse Ihres ${v.site}-Kontos ist.`,
      'Ihre Adresse wird erst geändert, wenn Sie diesem Link folgen. Er kann nur einmal verwendet werden und ist 24 Stunden lang gültig.',
    ],
    action: { label: 'Neue Adresse bestätigen', url: v.link },
  }),
  mail_change_notice: (v) => ({
    subject: `Ihre E-Mail-Adresse bei ${v.site} wird geändert`,
    lines: [
      `Hallo ${v.name},`,
      `es wurde beantragt, die E-Mail-Adresse Ihres Kontos in ${v.newEmail ?? 'eine neue Adresse'} zu ändern. Die Änderung wird wirksam, sobald die neue Adresse bestätigt ist.`,
      'Falls diese Adresse nicht stimmt oder Sie die Änderung nicht beantragt haben, geben Sie uns bitte Bescheid.',
    ],
    action: { label: 'Das stimmt nicht', url: v.link },
  }),
  mail_change_taken: (v) => ({
    subject: `Versuch einer Adressänderung bei ${v.site}`,
    lines: [
      'Hallo,',
      `jemand hat beantragt, ein anderes ${v.site}-Konto auf diese Adresse umzustellen. Für diese Adresse besteht jedoch bereits ein Konto. Es wurde nichts geändert.`,
      'Falls Sie das waren, melden Sie sich stattdessen mit dieser Adresse an.',
    ],
    action: { label: 'Anmelden', url: v.link },
  }),
  report: (v) => ({
    subject: `Meldung #${v.report?.id} bei ${v.site}: ${v.report?.reason}`,
    lines: [
      `Mitglied ${v.report?.reporter} hat Mitglied ${v.report?.reported} gemeldet wegen: ${v.report?.reason}.`,
      `Begründung: ${v.report?.text || '(keine)'}`,
      'Bitte prüfe das Profil und, falls eine Nachricht gemeldet wurde, den Gesprächsverlauf.',
    ],
    action: { label: 'Gemeldetes Profil öffnen', url: v.link },
  }),
  complaint_receipt: (v) => ({
    subject: `Wir haben Ihre Beschwerde ${c(v).reference} bei ${v.site} erhalten`,
    lines: [
      `Hallo ${v.name},`,
      `wir haben Ihre Beschwerde bei ${v.site} erhalten. Das Aktenzeichen lautet ${c(v).reference}; bitte geben Sie es an, wenn Sie uns dazu schreiben.`,
      `Wir prüfen jede Meldung sorgfältig und antworten Ihnen per E-Mail, in der Regel innerhalb von 7 Tagen. Wenn wir etwas unternehmen, teilen wir Ihnen mit, was und warum.`,
      `Sie haben nichts gesendet? Dann können Sie diese E-Mail ignorieren.`,
    ],
    action: { label: `Beschwerden und Einsprüche bei ${v.site}`, url: v.link },
  }),
  complaint: (v) => ({
    subject: `Beschwerde ${c(v).reference} bei ${v.site}: ${c(v).subject}`,
    lines: [
      `Über das Beschwerdeformular ist eine Meldung (${c(v).kind}) eingegangen.`,
      `Von: ${c(v).name} <${c(v).email}>${c(v).member ? ` (Mitglied ${c(v).member})` : ''}`,
      `Wo: ${c(v).url || '-'}`,
      `Was und warum:`,
      `${c(v).text}`,
      `Der Absender hat erklärt, in gutem Glauben zu handeln. Antwort per E-Mail mit Aktenzeichen ${c(v).reference}.`,
    ],
    action: { label: 'Link der Beschwerde öffnen', url: v.link },
  }),
  receipt: (v) => {
    const r = v.receipt ?? { credits: 0, amount: '', balance: 0, transaction: '' }
    return {
      subject: `Deine ${v.site}-Quittung: ${r.credits} Credits`,
      lines: [
        `Hallo ${v.name},`,
        `Danke für deinen Kauf. Deinem Konto wurden ${r.credits} Credits für ${r.amount} gutgeschrieben.`,
        `Dein Guthaben beträgt jetzt ${r.balance} Credits.`,
        `Transaktion: ${r.transaction}`,
      ],
      action: { label: 'Transaktion ansehen', url: v.link },
    }
  },
  new_message: (v) => ({
    subject: `${m(v).sender} hat Ihnen auf ${v.site} eine Nachricht geschickt`,
    lines: [
      `Hallo ${v.name},`,
      `${m(v).sender} hat Ihnen auf ${v.site} eine neue Nachricht geschickt.`,
      'Melden Sie sich an, um sie zu lesen und zu antworten. Solange Sie sie nicht gelesen haben, schreiben wir Ihnen zu diesem Chat keine weitere E-Mail.',
    ],
    action: { label: 'Nachricht lesen', url: v.link },
    optOut: {
      label:
        'Sie möchten diese E-Mails nicht? Schalten Sie „Neue Nachrichten“ in Ihren Benachrichtigungen aus',
      url: m(v).settings,
    },
  }),
  statement_of_reasons: (v) => ({
    subject: `Entscheidung zu deinem Konto bei ${v.site}`,
    lines: [
      `Hallo ${v.name},`,
      whatOf(v),
      `Die betroffene Regel: ${rules[s(v).rule] ?? s(v).rule}.`,
      `Sachverhalt und Gründe: ${s(v).reason}`,
      `Diese Entscheidung hat ein Mensch aus unserem Moderationsteam getroffen; automatisierte Mittel wurden weder zur Erkennung noch zur Entscheidung eingesetzt.`,
      `Du kannst innerhalb von 6 Monaten kostenlos Widerspruch einlegen, über den Link unten (oder auf der Beschwerdeseite mit „Widerspruch gegen eine Entscheidung“). Ein anderer Moderator prüft deinen Widerspruch; du kannst dich auch an eine außergerichtliche Streitbeilegungsstelle oder an ein Gericht wenden.`,
    ],
    action: { label: `Widerspruch einlegen`, url: v.link },
  }),
  report_decision: (v) => ({
    subject: `Deine Meldung bei ${v.site}: unsere Entscheidung`,
    lines: [
      `Hallo ${v.name},`,
      `Danke für deine Meldung. Wir haben sie geprüft.`,
      v.decision?.acted
        ? `Wir haben Maßnahmen gegen den Inhalt oder das betroffene Mitglied ergriffen.`
        : `Wir haben keinen Verstoß gegen unsere Regeln festgestellt und daher nichts unternommen.`,
      `Wenn du mit dieser Entscheidung nicht einverstanden bist, kannst du sie über den Link unten anfechten.`,
    ],
    action: { label: `Entscheidung anfechten`, url: v.link },
  }),
  appeal_decision: (v) => ({
    subject: `Dein Widerspruch bei ${v.site}: Entscheidung`,
    lines: [
      `Hallo ${v.name},`,
      `Ein anderer Moderator hat deinen Widerspruch geprüft.`,
      whatOf(v),
      v.appeal?.outcome === 'lifted'
        ? `Wir haben die Entscheidung aufgehoben.${s(v).kind === 'suspend' || s(v).kind === 'ban' ? ` Du kannst dich wieder anmelden.` : ''}`
        : `Wir halten an der Entscheidung fest.`,
      `Gründe: ${v.appeal?.reason ?? ''}`,
      `Wenn du weiterhin nicht einverstanden bist, kannst du dich an eine zertifizierte außergerichtliche Streitbeilegungsstelle oder an ein Gericht wenden.`,
    ],
    action: { label: `Anmelden`, url: v.link },
  }),
}
