import { useId } from 'react'
import { m } from '../../messages/paraglide/messages.js'
import { getLocale, type Locale, locales, setLocale } from '../../messages/paraglide/runtime.js'

/** Each language by its own name, so a visitor finds theirs in any language. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  nl: 'Nederlands',
  de: 'Deutsch',
  it: 'Italiano',
  fr: 'Français',
  es: 'Español',
  pl: 'Polski',
}

/**
 * Spec §4 language choice: Paraglide's setLocale stores the locale cookie
 * (365 days, messages/options.ts), which comes before the browser language
 * on every later visit, and reloads so every text and `<html lang>` follow.
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const id = useId()
  return (
    <p className={`language-switcher ${className ?? ''}`}>
      <label htmlFor={id}>{m.footer_language()}</label>{' '}
      <select
        id={id}
        value={getLocale()}
        onChange={(e) => void setLocale(e.target.value as Locale)}
      >
        {locales.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </p>
  )
}
