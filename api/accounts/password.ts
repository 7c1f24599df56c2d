import { hash, verify } from '@node-rs/argon2'

/** Algorithm.Argon2id of @node-rs/argon2 (an ambient const enum, so spelled out). */
const ARGON2ID = 2
// argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane).
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 }

export const hashPassword = (password: string) => hash(password, OPTIONS)

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password)
  } catch {
    return false
  }
}

/**
 * A hash of nothing anyone knows, verified when the email is unknown so that a
 * login for a missing account costs the same time as a wrong password and the
 * answer does not reveal whether the email exists.
 */
let dummy: Promise<string> | undefined
export const dummyHash = () => {
  dummy ??= hash(crypto.randomUUID(), OPTIONS)
  return dummy
}
