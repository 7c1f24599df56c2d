// The accounts domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export { deleteAccount, type MailContext } from './accounts.ts'
export { exportMember } from './export.ts'
export { dummyHash, hashPassword, verifyPassword } from './password.ts'
export { TOKEN_TTL_MS } from './tokens.ts'
