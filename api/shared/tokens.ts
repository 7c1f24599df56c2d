// Secret tokens handed out in a cookie or a link (member and staff sessions,
// mailed account links, staff unlock links, appeal links): only their hash is
// stored, so a leaked table opens nothing, and a token is found by its hash.
import { createHash } from 'node:crypto'

/** The stored form of a secret token: its SHA-256, hex. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex')
