// The withdrawal function's calls (CRD Art. 11a): the member's purchases, a
// withdrawal, and without a session the mailed confirmation link. Nothing is
// stored: the page asks while the member waits, online only.
import { type BodyOf, request } from '../core/http.ts'

export const withdrawalHandlers = () => ({
  purchases: () => request('purchases'),
  withdraw: (order: string) => request('withdraw', { body: { order } }),
  /** Without a session: a confirmation link to the order's address (the answer never says whether). */
  withdrawalLink: (body: BodyOf<'withdrawalLink'>) => request('withdrawalLink', { body }),
  withdrawalLinkPurchase: (token: string) =>
    request('withdrawalLinkPurchase', { query: { token } }),
  withdrawalConfirm: (token: string) => request('withdrawalConfirm', { body: { token } }),
})
