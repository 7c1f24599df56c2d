// The payments domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).

export { checkoutRoutes } from './checkout.ts'
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
export { type LocalProvider, localProvider } from './local.ts'
export { mollieProvider } from './mollie.ts'
export { creditValueOf } from './packages.ts'
export type { PaymentProvider } from './provider.ts'
export { unavailableProvider } from './provider.ts'
export {
  type RefundDeps,
  refundedByOrder,
  refundedOf,
  refundThroughProvider,
} from './refunds.ts'
export { paymentsRoutes } from './routes.ts'
export { paymentJobs, settlePayment } from './settle.ts'
export { withdrawalJobs } from './withdrawal.ts'
export { withdrawalRoutes } from './withdrawal-routes.ts'
