// Time-based one-time passwords (RFC 6238) for staff sign-in, through the
// otpauth library: SHA-1, 6 digits, 30-second steps, what every authenticator
// app reads from an otpauth:// URI.
import { Secret, TOTP } from 'otpauth'

const PERIOD_S = 30

const totpOf = (secret: string, label = 'staff', issuer = 'Operator console') =>
  new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
  })

/** A new random secret (160 bits, RFC 4226's recommendation), base32. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32

/** The otpauth:// URI an authenticator app scans or imports. */
export const totpUri = (secret: string, label: string, issuer: string) =>
  totpOf(secret, label, issuer).toString()

/** The code at `at` (tests and the demo's `npm run totp`). */
export const totpCode = (secret: string, at = Date.now()) =>
  totpOf(secret).generate({ timestamp: at })

/**
 * The time step of the code if it is valid at `at` (one step of clock drift
 * either way, as RFC 6238 §5.2 allows), else null. The caller refuses a step
 * not above the last one accepted, so a code overheard or replayed works once.
 */
export function acceptedStep(secret: string, code: string, at: number): number | null {
  const totp = totpOf(secret)
  const delta = totp.validate({ token: code, timestamp: at, window: 1 })
  return delta === null ? null : totp.counter({ timestamp: at }) + delta
}
