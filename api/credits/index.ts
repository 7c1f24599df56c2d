// The credits domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export {
  balanceOf,
  credit,
  debit,
  debitInStatement,
  forgetMessageCost,
  ledgerSum,
  messageCost,
  zeroCredits,
} from './ledger.ts'
