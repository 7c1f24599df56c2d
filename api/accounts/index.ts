// The accounts domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { deleteAccount, type MailContext } from './accounts.ts'
export { activityRoutes } from './activity-routes.ts'
export {
  findMembers,
  type MemberRecord,
  memberRecord,
  signupFactsSql,
} from './console-sql.ts'
export { exportMember } from './export.ts'
export { exportRoutes } from './export-routes.ts'
export { authRoutes } from './login-routes.ts'
export { dummyHash, hashPassword, verifyPassword } from './password.ts'
export { accountRoutes } from './routes.ts'
export { TOKEN_TTL_MS } from './tokens.ts'
export { userRoutes } from './user-routes.ts'
