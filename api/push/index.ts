// The push domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { pushSubscriptionsExport } from './account.ts'
export { checkPushEndpoint } from './endpoint-check.ts'
export { pushEventJobSql } from './event-job-sql.ts'
export { PUSH_EVENT_JOB } from './events.ts'
export { enqueuePush } from './notify.ts'
export type { BadgeOf } from './payload.ts'
export { messageMailsWanted } from './preferences.ts'
export { pushRoutes } from './routes.ts'
export { claimMessageMail, hasPushSubscriptionSql, messageMailDueSql } from './sql.ts'
export { saveSubscription } from './subscriptions.ts'
export { dropSubscriptions } from './subscriptions-sql.ts'
