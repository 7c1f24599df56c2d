import type { LocaleTemplates } from './types.ts'

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
}
