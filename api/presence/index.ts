// The presence domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { privacyOf, readReceiptsBetween, verifiedOnlySql } from './privacy.ts'
export { presenceRoutes } from './routes.ts'
export { newVisitsCountSql, recordVisit } from './visits.ts'
