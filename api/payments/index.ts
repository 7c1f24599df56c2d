// The payments domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export type { PaymentProvider } from './provider.ts'
export { settlePayment } from './settle.ts'
export {
  type RefundDeps,
  refundedByOrder,
  refundedOf,
  refundThroughProvider,
} from './refunds.ts'
export { checkoutRoutes } from './checkout.ts'
export { type LocalProvider, localProvider } from './local.ts'
export { mollieProvider } from './mollie.ts'
export { unavailableProvider } from './provider.ts'
export { creditValueOf } from './packages.ts'
export { paymentsRoutes } from './routes.ts'
export { paymentJobs } from './settle.ts'
export { withdrawalJobs } from './withdrawal.ts'
export { withdrawalRoutes } from './withdrawal-routes.ts'
export {
  type DiscountCodeRow,
  deleteOperatorCode,
  discountCode,
  memberOrders,
  type OrderRow,
  operatorCodes,
  orderById,
  packagesWithPrices,
  paidOrdersSql,
  putDiscountCode,
  putPackage,
} from './console-sql.ts'
export { ordersExport } from './export.ts'
