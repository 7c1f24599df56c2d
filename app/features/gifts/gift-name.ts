import type { Gift } from '../../../api/contract/index.ts'
import { m } from '../../../messages/paraglide/messages.js'

/** The built-in gifts' names in the member's language (db/migrations/0035_gift-catalogue.sql). */
const BUILT_IN: Record<string, () => string> = {
  rose: m.gift_rose,
  coffee: m.gift_coffee,
  teddy: m.gift_teddy,
  champagne: m.gift_champagne,
}

/** A gift's name as the member reads it: the operator's, else the built-in one in their language, else its id. */
export const giftName = (g: Pick<Gift, 'slug' | 'name'>): string =>
  g.name ?? BUILT_IN[g.slug]?.() ?? g.slug
