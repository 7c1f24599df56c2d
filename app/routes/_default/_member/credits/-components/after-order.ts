import type { useNavigate } from '@tanstack/react-router'

/** What an order answers: a provider's checkout to go to, or its transaction at once. */
interface PlacedOrder {
  checkout_url?: string | null
  transaction: { id: string }
}

/**
 * After an order is placed (a new one or a repeat): off to the provider's
 * checkout, or, when nothing is left to pay there (a mandate was charged),
 * straight to the public transaction page.
 */
export async function followOrder(
  order: PlacedOrder,
  navigate: ReturnType<typeof useNavigate>,
): Promise<void> {
  if (order.checkout_url) window.location.assign(order.checkout_url)
  else
    await navigate({
      to: '/transactions/$transactionId',
      params: { transactionId: order.transaction.id },
    })
}
