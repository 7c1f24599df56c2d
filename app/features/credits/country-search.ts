// Kept apart from PricingPage.tsx: the route's search check runs in the
// app's shell, the page itself loads with its route.

/** ?country=XX of the pricing pages, without zod on the main thread. */
export const countrySearch = (search: Record<string, unknown>): { country?: string } =>
  typeof search.country === 'string' && /^[A-Z]{2}$/.test(search.country)
    ? { country: search.country }
    : {}
