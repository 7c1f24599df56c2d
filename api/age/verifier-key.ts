// The verifier's signing key and certificate chain for signed OpenID4VP
// requests (client id prefix x509_san_dns). From the environment when set:
// AGE_VERIFIER_KEY (PKCS#8 PEM, P-256) and AGE_VERIFIER_CERT (PEM chain, leaf
// first; the leaf's SAN dNSName entries are the hosts it may sign for), or
// the *_FILE variants naming files. Otherwise a key is generated on first
// start and kept in the database like the VAPID keys (api/settings/vapid.ts), and
// each host gets a self-signed certificate for it, made in memory. A wallet
// that checks the EU trust list refuses such a certificate: production needs
// the registered access certificate (docs/age-assurance.md).
import 'reflect-metadata'
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  X509Certificate,
} from 'node:crypto'
import { readFileSync } from 'node:fs'
import * as x509 from '@peculiar/x509'
import type { Db } from '../../db/client.ts'
import { keptSecret } from '../settings/index.ts'

/** What signs one host's requests. */
export interface VerifierCredentials {
  key: KeyObject
  /** The certificate chain, leaf first, base64 DER (the JWT's `x5c`). */
  x5c: string[]
}

/** Finds the credentials for a host name; throws when none may sign for it. */
export type VerifierSource = (hostname: string) => Promise<VerifierCredentials>

/** Stored under a key the public settings never expose (api/settings keptSecret). */
const SECRET_KEY = 'secret.age_verifier'

const P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const
const DAY = 86_400_000

const envValue = (env: NodeJS.ProcessEnv, name: string) =>
  env[name] ?? (env[`${name}_FILE`] ? readFileSync(env[`${name}_FILE`] ?? '', 'utf8') : undefined)

/** The certificates of a PEM chain as x5c entries (base64 DER). */
export function x5cOf(pem: string): string[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  return blocks.map((b) => new X509Certificate(b).raw.toString('base64'))
}

/** The SAN dNSName entries of a certificate (x5c entry). */
export function sanDnsNames(x5cEntry: string): string[] {
  const alt = new X509Certificate(Buffer.from(x5cEntry, 'base64')).subjectAltName ?? ''
  return alt
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4))
}

export function verifierFromEnv(db: Db | undefined, env: NodeJS.ProcessEnv): VerifierSource {
  const keyPem = envValue(env, 'AGE_VERIFIER_KEY')
  const certPem = envValue(env, 'AGE_VERIFIER_CERT')
  if (keyPem || certPem) {
    if (!keyPem || !certPem) {
      throw new Error('AGE_VERIFIER_KEY and AGE_VERIFIER_CERT must be set together')
    }
    const key = createPrivateKey(keyPem)
    const x5c = x5cOf(certPem)
    const leaf = x5c[0]
    if (!leaf) throw new Error('AGE_VERIFIER_CERT holds no certificate')
    const leafKey = new X509Certificate(Buffer.from(leaf, 'base64')).publicKey
    if (!leafKey.equals(createPublicKey(key))) {
      throw new Error('AGE_VERIFIER_KEY does not match the first certificate of AGE_VERIFIER_CERT')
    }
    const names = sanDnsNames(leaf)
    return async (hostname) => {
      if (!names.includes(hostname)) {
        throw new Error(`the verifier certificate does not name ${hostname} (SAN dNSName)`)
      }
      return { key, x5c }
    }
  }
  if (!db) return async () => Promise.reject(new Error('no verifier key configured'))
  return generatedVerifier(db)
}

/** A generated key (kept in the database) with a self-signed certificate per host. */
export function generatedVerifier(db: Db): VerifierSource {
  let key: Promise<KeyObject> | undefined
  const certs = new Map<string, Promise<string>>()
  return async (hostname) => {
    if (!key) {
      key = storedOrNewKey(db)
      key.catch(() => {
        key = undefined // a failed read is tried again next time
      })
    }
    const k = await key
    let cert = certs.get(hostname)
    if (!cert) {
      cert = selfSigned(k, hostname)
      certs.set(hostname, cert)
      cert.catch(() => certs.delete(hostname))
    }
    return { key: k, x5c: [await cert] }
  }
}

type StoredKey = { privateKeyPem: string }
const isStoredKey = (v: unknown): v is StoredKey =>
  typeof (v as Partial<StoredKey> | null)?.privateKeyPem === 'string' &&
  (v as StoredKey).privateKeyPem !== ''

async function storedOrNewKey(db: Db): Promise<KeyObject> {
  const stored = await keptSecret(
    db,
    SECRET_KEY,
    () => {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      return { privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string }
    },
    isStoredKey,
  )
  if (!stored) throw new Error('age verifier key could not be stored')
  return createPrivateKey(stored.privateKeyPem)
}

/** A self-signed certificate (base64 DER) for `key` naming `hostname` (SAN dNSName). */
export async function selfSigned(key: KeyObject, hostname: string): Promise<string> {
  const subtle = globalThis.crypto.subtle
  const privateKey = await subtle.importKey(
    'pkcs8',
    key.export({ format: 'der', type: 'pkcs8' }) as Buffer as BufferSource,
    P256,
    true,
    ['sign'],
  )
  const publicKey = await subtle.importKey(
    'spki',
    createPublicKey(key).export({ format: 'der', type: 'spki' }) as Buffer as BufferSource,
    P256,
    true,
    ['verify'],
  )
  const now = Date.now()
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${hostname}`,
    keys: { privateKey, publicKey },
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
    extensions: [
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: hostname }]),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    ],
  })
  return Buffer.from(cert.rawData).toString('base64')
}
