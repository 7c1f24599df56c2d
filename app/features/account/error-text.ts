// ValidationError → the visitor's text (spec §5 messages live in Paraglide).
import { m } from '../../../messages/paraglide/messages.js'
import type { ValidationError } from './validation.ts'

type Locale = 'en' | 'nl' | 'de' | 'it' | 'fr' | 'es' | 'pl'

export function errorText(error: ValidationError, options: { locale?: Locale } = {}): string {
  switch (error.code) {
    case 'required':
      return m.validation_required({}, options)
    case 'min_length':
      return m.validation_min_length({ min: error.min }, options)
    case 'max_length':
      return m.validation_max_length({ max: error.max }, options)
    case 'email_invalid':
      return m.validation_email({}, options)
    case 'name_starts_with_at':
      return m.validation_name_at({}, options)
    case 'name_equals_email':
      return m.validation_name_email({}, options)
    case 'date_invalid':
      return m.validation_date({}, options)
    case 'profile.date_of_birth_error':
      return m.profile_date_of_birth_error({ min_age: error.min_age }, options)
  }
}
