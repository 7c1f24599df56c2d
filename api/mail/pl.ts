import {
  complaintOf as c,
  type LocaleTemplates,
  type MailVars,
  messageOf as m,
  statementOf as s,
} from './types.ts'

const rules: Record<string, string> = {
  harassment: `nękanie`,
  spam_scam: `spam lub oszustwa`,
  fake_profile: `fałszywe profile`,
  explicit_content: `treści o charakterze jednoznacznie seksualnym`,
  underage: `osoby poniżej 18 lat`,
  other: `nasz regulamin`,
}
const whats: Record<string, (v: MailVars) => string> = {
  warn: () => `Udzielamy Ci formalnego ostrzeżenia.`,
  suspend: (v) =>
    `Zawiesiliśmy Twoje konto do ${s(v).ends} (UTC). Do tego czasu nie możesz się zalogować.`,
  ban: () => `Zamknęliśmy Twoje konto na stałe (blokada).`,
  remove_photo: () => `Usunęliśmy zdjęcie z Twojego profilu.`,
  remove_text: () => `Usunęliśmy tekst Twojego profilu.`,
}
const whatOf = (v: MailVars) => whats[s(v).kind]?.(v) ?? ''

/**
 * Polish, in neutral polite forms (impersonal and "prosimy" constructions) so no
 * Pan/Pani or gendered verb is needed; the site name is always "serwis X" so it is
 * never declined.
 */
export const pl: LocaleTemplates = {
  activate: (v) => ({
    subject: `Aktywacja konta w serwisie ${v.site}`,
    lines: [
      `Dzień dobry, ${v.name}!`,
      `Witamy w serwisie ${v.site}! Aby aktywować konto, prosimy potwierdzić adres e-mail.`,
      'Link działa tylko raz i wygasa po 7 dniach.',
      'Jeśli rejestracja nie pochodziła od właściciela tego adresu, wystarczy zignorować tę wiadomość.',
    ],
    action: { label: 'Aktywuj konto', url: v.link },
  }),
  signup_exists: (v) => ({
    subject: `Próba rejestracji w serwisie ${v.site}`,
    lines: [
      `Dzień dobry, ${v.name}!`,
      `Ktoś próbował założyć nowe konto w serwisie ${v.site} przy użyciu tego adresu e-mail, do którego jest już przypisane konto.`,
      'Jeśli ta próba pochodziła od właściciela adresu, wystarczy się zalogować; zapomniane hasło można zresetować na stronie logowania.',
      'W przeciwnym razie można zignorować tę wiadomość: nic nie zostało zmienione.',
    ],
    action: { label: 'Zaloguj się', url: v.link },
  }),
  reset: (v) => ({
    subject: `Resetowanie hasła w serwisie ${v.site}`,
    lines: [
      `Dzień dobry, ${v.name}!`,
      'Otrzymaliśmy prośbę o zresetowanie hasła. Nowe hasło można ustawić, korzystając z poniższego linku.',
      'Link działa tylko raz i wygasa po 1 godzinie. Ustawienie nowego hasła spowoduje wylogowanie ze wszystkich innych urządzeń.',
      'Jeśli prośba nie pochodziła od właściciela konta, wystarczy zignorować tę wiadomość: hasło pozostanie bez zmian.',
    ],
    action: { label: 'Ustaw nowe hasło', url: v.link },
  }),
  login_unlock: (v) => ({
    subject: `Logowanie w serwisie ${v.site} zostało tymczasowo wstrzymane`,
    lines: [
      `Dzień dobry, ${v.name}!`,
      `Zbyt wiele razy próbowano zalogować się na konto w serwisie ${v.site}, podając błędne hasło, dlatego logowanie na to konto zostało na jakiś czas wstrzymane – także dla jego właściciela.`,
      'Jeśli były to próby właściciela konta, poniższy przycisk pozwala od razu zalogować się ponownie. Link działa tylko raz i wygasa po 1 godzinie.',
      'Jeśli nie, być może ktoś próbuje odgadnąć hasło. Bez hasła nikt się nie zaloguje; jeśli to hasło jest używane także gdzie indziej albo jest krótkie, warto ustawić nowe za pomocą opcji „Nie pamiętasz hasła?” na stronie logowania.',
    ],
    action: { label: 'Zaloguj się ponownie teraz', url: v.link },
  }),
  staff_unlock: (v) => ({
    subject: `Logowanie do konsoli ${v.site} zostało tymczasowo wstrzymane`,
    lines: [
      `Cześć, ${v.name}!`,
      `Było zbyt wiele nieudanych prób zalogowania się do konsoli ${v.site} na Twoje konto, dlatego logowanie na to konto zostało na jakiś czas wstrzymane – także dla Ciebie.`,
      'Jeśli to Ty, możesz od razu zalogować się ponownie za pomocą poniższego przycisku (hasłem i kodem z aplikacji uwierzytelniającej). Link działa tylko raz i wygasa po 1 godzinie.',
      'Jeśli to nie Ty, być może ktoś próbuje dostać się do konsoli na Twoje konto: powiadom administratora.',
    ],
    action: { label: 'Zaloguj się ponownie teraz', url: v.link },
  }),
  mail_change_confirm: (v) => ({
    subject: `Potwierdzenie nowego adresu e-mail w serwisie ${v.site}`,
    lines: [
      `Dzień dobry, ${v.name}!`,
      `Prosimy potwierdzić, że ${v.newEmail ?? 'ten adres'} to nowy adres e-mail konta w serwisie ${v.site}.`,
      'Adres zostanie zmieniony dopiero po otwarciu tego linku. Link działa tylko raz i wygasa po 24 godzinach.',
    ],
    action: { label: 'Potwierdź nowy adres', url: v.link },
  }),
  mail_change_notice: (v) => ({
    subject: `Adres e-mail konta w serwisie ${v.site} wkrótce się zmieni`,
    lines: [
      `Dzień dobry, ${v.name}!`,
      `Otrzymaliśmy prośbę o zmianę adresu e-mail konta na ${v.newEmail ?? 'nowy adres'}. Zmiana nastąpi po potwierdzeniu nowego adresu.`,
      'Jeśli ten adres jest nieprawidłowy lub prośba nie pochodziła od właściciela konta, prosimy o kontakt.',
    ],
    action: { label: 'To się nie zgadza', url: v.link },
  }),
  mail_change_taken: (v) => ({
    subject: `Próba zmiany adresu e-mail w serwisie ${v.site}`,
    lines: [
      'Dzień dobry!',
      `Ktoś poprosił o przeniesienie innego konta w serwisie ${v.site} na ten adres, do którego jest już przypisane konto. Nic nie zostało zmienione.`,
      'Jeśli prośba pochodziła od właściciela tego adresu, wystarczy się zalogować, podając ten adres.',
    ],
    action: { label: 'Zaloguj się', url: v.link },
  }),
  report: (v) => ({
    subject: `Zgłoszenie nr ${v.report?.id} w ${v.site}: ${v.report?.reason}`,
    lines: [
      `Członek ${v.report?.reporter} zgłosił członka ${v.report?.reported} z powodu: ${v.report?.reason}.`,
      `Uzasadnienie: ${v.report?.text || '(brak)'}`,
      'Sprawdź profil, a jeśli zgłoszono wiadomość, także rozmowę, w której się znajduje.',
    ],
    action: { label: 'Otwórz zgłoszony profil', url: v.link },
  }),
  complaint_receipt: (v) => ({
    subject: `Otrzymaliśmy Twoją reklamację ${c(v).reference} w serwisie ${v.site}`,
    lines: [
      `Dzień dobry, ${v.name},`,
      `otrzymaliśmy Twoją reklamację w serwisie ${v.site}. Jej numer to ${c(v).reference}; podaj go, jeśli napiszesz do nas w tej sprawie.`,
      `Każde zgłoszenie starannie rozpatrujemy i odpowiadamy e-mailem, zwykle w ciągu 7 dni. Jeśli podejmiemy działania, poinformujemy Cię, co zrobiliśmy i dlaczego.`,
      `To nie Ty? W takim razie zignoruj tę wiadomość.`,
    ],
    action: { label: `Reklamacje i odwołania w serwisie ${v.site}`, url: v.link },
  }),
  complaint: (v) => ({
    subject: `Reklamacja ${c(v).reference} w serwisie ${v.site}: ${c(v).subject}`,
    lines: [
      `Przez formularz reklamacji wpłynęło zgłoszenie (${c(v).kind}).`,
      `Od: ${c(v).name} <${c(v).email}>${c(v).member ? ` (członek ${c(v).member})` : ''}`,
      `Gdzie: ${c(v).url || '-'}`,
      `Co i dlaczego:`,
      `${c(v).text}`,
      `Nadawca oświadczył, że działa w dobrej wierze. Odpowiedz e-mailem, podając ${c(v).reference}.`,
    ],
    action: { label: 'Otwórz link reklamacji', url: v.link },
  }),
  receipt: (v) => {
    const r = v.receipt ?? { credits: 0, amount: '', balance: 0, transaction: '' }
    return {
      subject: `Twój rachunek ${v.site}: ${r.credits} kredytów`,
      lines: [
        `Cześć ${v.name},`,
        `Dziękujemy za zakup. Do Twojego konta dodaliśmy ${r.credits} kredytów za ${r.amount}.`,
        `Twoje saldo wynosi teraz ${r.balance} kredytów.`,
        `Transakcja: ${r.transaction}`,
      ],
      action: { label: 'Zobacz transakcję', url: v.link },
    }
  },
  new_message: (v) => ({
    subject: `Nowa wiadomość w serwisie ${v.site} od: ${m(v).sender}`,
    lines: [
      `Dzień dobry, ${v.name}!`,
      `W serwisie ${v.site} czeka nowa wiadomość od: ${m(v).sender}.`,
      'Wystarczy się zalogować, aby ją przeczytać i odpowiedzieć. Dopóki nie zostanie przeczytana, nie wyślemy kolejnego e-maila w sprawie tej rozmowy.',
    ],
    action: { label: 'Przeczytaj wiadomość', url: v.link },
    optOut: {
      label:
        'Te e-maile nie są potrzebne? Wystarczy wyłączyć „Nowe wiadomości” w ustawieniach powiadomień',
      url: m(v).settings,
    },
  }),
  statement_of_reasons: (v) => ({
    subject: `Decyzja dotycząca Twojego konta w ${v.site}`,
    lines: [
      `Cześć ${v.name},`,
      whatOf(v),
      `Zasada, której to dotyczy: ${rules[s(v).rule] ?? s(v).rule}.`,
      `Fakty i uzasadnienie: ${s(v).reason}`,
      `Tę decyzję podjęła osoba z naszego zespołu moderacji; do wykrycia sprawy ani do decyzji nie użyto środków zautomatyzowanych.`,
      `W ciągu 6 miesięcy możesz bezpłatnie się odwołać przez link poniżej (albo na stronie skarg, wybierając „odwołanie od decyzji”). Twoje odwołanie rozpatrzy inny moderator; możesz też zwrócić się do organu pozasądowego rozstrzygania sporów lub do sądu.`,
    ],
    action: { label: `Odwołaj się od decyzji`, url: v.link },
  }),
  report_decision: (v) => ({
    subject: `Twoje zgłoszenie w ${v.site}: nasza decyzja`,
    lines: [
      `Cześć ${v.name},`,
      `Dziękujemy za zgłoszenie. Sprawdziliśmy je.`,
      v.decision?.acted
        ? `Podjęliśmy działania wobec tej treści lub tego użytkownika.`
        : `Nie stwierdziliśmy naruszenia naszych zasad, więc nie podjęliśmy działań.`,
      `Jeśli nie zgadzasz się z tą decyzją, możesz ją zakwestionować przez link poniżej.`,
    ],
    action: { label: `Zakwestionuj decyzję`, url: v.link },
  }),
  appeal_decision: (v) => ({
    subject: `Twoje odwołanie w ${v.site}: decyzja`,
    lines: [
      `Cześć ${v.name},`,
      `Inny moderator rozpatrzył Twoje odwołanie.`,
      whatOf(v),
      v.appeal?.outcome === 'lifted'
        ? `Uchyliliśmy decyzję.${s(v).kind === 'suspend' || s(v).kind === 'ban' ? ` Możesz znów się zalogować.` : ''}`
        : `Podtrzymujemy decyzję.`,
      `Uzasadnienie: ${v.appeal?.reason ?? ''}`,
      `Jeśli nadal się nie zgadzasz, możesz zwrócić się do certyfikowanego organu pozasądowego rozstrzygania sporów lub do sądu.`,
    ],
    action: { label: `Zaloguj się`, url: v.link },
  }),
}
