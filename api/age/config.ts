import { readFileSync } from 'node:fs'
import type { Db } from '../../db/client.ts'
import { ageTestWalletOn } from '../config.ts'
import type { AgeDeps } from './age.ts'
import { euAvProvider, pemCertificates } from './eu-av.ts'
import { testWallet } from './test-wallet.ts'
import { verifierFromEnv } from './verifier-key.ts'

/**
 * The providers as the environment configures them. AGE_TRUST_ANCHORS holds
 * the IACA root certificates (PEM, one or more) of the proof-of-age issuers
 * the site trusts, or AGE_TRUST_ANCHORS_FILE names a file of them. Without
 * any, the EU provider is unavailable and the operator setting should stay
 * `off` (docs/age-assurance.md). The requests are signed with
 * AGE_VERIFIER_KEY / AGE_VERIFIER_CERT, or a key generated on first start
 * and kept in `db` (api/age/verifier-key.ts). With the test wallet on
 * (ageTestWalletOn), the built-in test issuer's root is one more anchor.
 */
export function ageFromEnv(db?: Db, env: NodeJS.ProcessEnv = process.env): AgeDeps {
  const pem =
    env.AGE_TRUST_ANCHORS ??
    (env.AGE_TRUST_ANCHORS_FILE ? readFileSync(env.AGE_TRUST_ANCHORS_FILE, 'utf8') : '')
  const verifier = verifierFromEnv(db, env)
  const wallet = ageTestWalletOn(env) ? testWallet() : undefined
  return {
    providers: {
      'eu-av': euAvProvider({
        trustAnchors: pemCertificates(pem),
        ...(wallet ? { moreAnchors: wallet.anchors } : {}),
        verifier,
      }),
    },
    ...(wallet ? { testWallet: wallet } : {}),
  }
}
