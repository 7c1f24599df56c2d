// The drizzle schema, the server's source of truth: one file per domain, all
// re-exported here. drizzle-kit generates db/migrations from it
// (drizzle.config.ts) and db/schema.test.ts checks that the migrations build
// exactly what it declares. The same SQL migrations run on PGlite and on
// PostgreSQL, so nothing here may use an extension PGlite lacks.
export * from './age.ts'
export * from './blocks.ts'
export * from './chats.ts'
export * from './complaints.ts'
export * from './credits.ts'
export * from './gifts.ts'
export * from './jobs.ts'
export * from './likes.ts'
export * from './mails.ts'
export * from './members.ts'
export * from './moderation.ts'
export * from './payments.ts'
export * from './presence.ts'
export * from './profiles.ts'
export * from './push.ts'
export * from './rate-limits.ts'
export * from './sessions.ts'
export * from './settings.ts'
export * from './staff.ts'
export * from './traffic.ts'
export * from './verification.ts'
