import { complaintOf as c, type LocaleTemplates, messageOf as m } from './types.ts'

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
}
