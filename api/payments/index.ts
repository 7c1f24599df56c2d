// The payments domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export type { PaymentProvider } from './provider.ts'
export { settlePayment } from './settle.ts'
export {
  type RefundDeps,
  refundedOf,
  refundThroughProvider,
} from './refunds.ts'
