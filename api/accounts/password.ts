import { hash, verify } from '@node-rs/argon2'
import { dictionary } from '@zxcvbn-ts/language-common'
import { PASSWORD_MIN, WEAK_PASSWORD, type WeakPasswordError } from '../contract/index.ts'
import { ApiFailure } from '../http/errors.ts'

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

/**
 * The 49,000 most common passwords of leaked lists, as @zxcvbn-ts keeps them
 * (lower case). Built on first use: the set costs a few MB.
 */
let common: Set<string> | undefined
const commonPasswords = () => {
  common ??= new Set(dictionary['passwords-common'])
  return common
}

/** Why a new password is too easy to guess, or null (docs/security.md, "Weak passwords"). */
export function passwordProblem(
  password: string,
  email?: string,
): WeakPasswordError['reason'] | null {
  // Code points, as a person counts characters (an emoji is one).
  if ([...password].length < PASSWORD_MIN) return 'too_short'
  const lower = password.trim().toLowerCase()
  if (commonPasswords().has(lower)) return 'common'
  if (email !== undefined) {
    const address = email.trim().toLowerCase()
    if (lower === address || lower === address.split('@')[0]) return 'equals_email'
  }
  return null
}

const REASON_TEXT: Record<WeakPasswordError['reason'], string> = {
  too_short: `at least ${PASSWORD_MIN} characters`,
  common: 'one of the most common passwords',
  equals_email: 'the email address',
}

/** 400 weak_password naming `password`, unless the new password is good enough. */
export function assertStrongPassword(password: string, email?: string): void {
  const reason = passwordProblem(password, email)
  if (reason === null) return
  throw new ApiFailure(400, WEAK_PASSWORD, 'password', `password: ${REASON_TEXT[reason]}`, {
    reason,
    min_length: PASSWORD_MIN,
  })
}
