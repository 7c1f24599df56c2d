import { m } from '../../../messages/paraglide/messages.js'

/** A payment method's name: brand names as they are, the generic ones in the member's language. */
export function methodName(method: string): string {
  switch (method) {
    case 'ideal':
      return 'iDEAL'
    case 'bancontact':
      return 'Bancontact'
    case 'blik':
      return 'BLIK'
    case 'przelewy24':
      return 'Przelewy24'
    case 'paypal':
      return 'PayPal'
    case 'creditcard':
      return m.credits_method_creditcard()
    case 'banktransfer':
      return m.credits_method_banktransfer()
    default:
      return method
  }
}
