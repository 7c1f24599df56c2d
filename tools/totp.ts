// `npm run totp -- <base32 secret>`: the current six-digit code of a staff
// account, for the demo's console logins (start prints their secrets).
import { totpCode } from '../api/operator/totp.ts'

const secret = process.argv[2]
if (!secret || !/^[A-Z2-7]+=*$/i.test(secret)) {
  console.error('usage: npm run totp -- <base32 secret>')
  process.exit(2)
}
console.log(totpCode(secret.toUpperCase()))
