// Wero (the European Payments Initiative's wallet) is offered where Mollie
// offers it, and only through the SDK the site pays with: today the Mollie
// SDK in use (@mollie/api-client, newest on npm) has no `wero` method, so the
// site offers none (docs/payments.md, "Wero"). The day an SDK update adds
// it, this test fails until the method list offers it in the euro countries.
import { PaymentMethod } from '@mollie/api-client'
import { describe, expect, it } from 'vitest'
import { methodsFor, PAYMENT_METHODS } from '../contract/rules/payments.ts'

describe('Wero is offered exactly when the Mollie SDK in use supports it', () => {
  const sdkHasWero = (Object.values(PaymentMethod) as string[]).includes('wero')

  it('the method list offers wero in a euro country if and only if the SDK knows it', () => {
    expect((PAYMENT_METHODS as readonly string[]).includes('wero')).toBe(sdkHasWero)
    for (const country of ['NL', 'BE', 'DE', 'FR'])
      expect((methodsFor(country) as string[]).includes('wero')).toBe(sdkHasWero)
  })

  it('never offers wero outside the euro (GB pays in pounds, PL in złoty)', () => {
    expect(methodsFor('GB') as string[]).not.toContain('wero')
    expect(methodsFor('PL') as string[]).not.toContain('wero')
  })
})
