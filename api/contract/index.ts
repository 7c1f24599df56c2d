// The API contract: zod schemas of every request and response. Imported by
// the server (validation) and by the sync worker (parsing responses); it may
// import zod only.
export * from './account.ts'
export * from './auth.ts'
export * from './cams.ts'
export * from './chats.ts'
export * from './common.ts'
export * from './endpoints.ts'
export * from './likes.ts'
export * from './members.ts'
export * from './messages.ts'
export * from './payments.ts'
export * from './profile.ts'
export * from './push.ts'
export * from './search.ts'
export * from './sessions.ts'
export * from './settings.ts'
export * from './traffic.ts'
