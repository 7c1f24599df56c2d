// The sessions domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).

export { endSessionOf, unexpiredSessions } from './console-sql.ts'
export { sessionRoutes } from './routes.ts'
export { deviceOf, endAllSessions, liveSessionSql, sessionsExport } from './sessions.ts'
