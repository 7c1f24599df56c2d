// The credits domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).

export { firstPurchasesSql, spendsSql } from './console-sql.ts'
export { ledgerExport } from './export.ts'
export { type LedgerRow, ledgerRows } from './history.ts'
export {
  balanceOf,
  credit,
  debit,
  debitEachInStatement,
  debitInStatement,
  forgetMessageCost,
  ledgerSum,
  MESSAGE_COST_CACHE,
  messageCost,
  SPEND_REASONS,
  type SpendReason,
  zeroCredits,
} from './ledger.ts'
