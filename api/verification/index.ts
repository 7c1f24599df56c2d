// The verification domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).

export { faceJobHandlers, photoFaceCheck } from './face-job.ts'
export { stopFaceWorker } from './face-match.ts'
export { verificationRoutes } from './routes.ts'
export {
  decideVerification,
  dropVerifications,
  pendingVerifications,
  verificationCase,
  verificationExport,
} from './verification.ts'
