// Spec rules and limits both ends apply, zod-free so the app can import them
// without the schemas. Nothing here imports anything outside rules/.
export * from './cams.ts'
export * from './complaints.ts'
export * from './limits.ts'
export * from './login.ts'
export * from './messages.ts'
export * from './moderation.ts'
export * from './payments.ts'
export * from './search.ts'
export * from './signups.ts'
export * from './slugs.ts'
export * from './staff.ts'
export * from './tracking.ts'
