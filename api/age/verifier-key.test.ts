// The verifier's key and certificate from the environment (AGE_VERIFIER_KEY,
// AGE_VERIFIER_CERT): both or neither, the key matching the leaf, and only
// the hosts the leaf names (SAN dNSName) may be signed for.
import { generateKeyPairSync, X509Certificate } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sanDnsNames, selfSigned, verifierFromEnv } from './verifier-key.ts'

const pemOf = (b64: string) => new X509Certificate(Buffer.from(b64, 'base64')).toString()
const keyPem = (k: ReturnType<typeof generateKeyPairSync>['privateKey']) =>
  k.export({ format: 'pem', type: 'pkcs8' }) as string

describe('the verifier key from the environment', () => {
  it('signs only for the hosts its certificate names', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    const cert = await selfSigned(privateKey, 'dating.example')
    expect(sanDnsNames(cert)).toEqual(['dating.example'])
    const source = verifierFromEnv(undefined, {
      AGE_VERIFIER_KEY: keyPem(privateKey),
      AGE_VERIFIER_CERT: pemOf(cert),
    })
    expect((await source('dating.example')).x5c).toEqual([cert])
    await expect(source('other.example')).rejects.toThrow(/does not name other.example/)
  })

  it('refuses to start with only one of the two, or a key that is not the certificate’s', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey
    const cert = pemOf(await selfSigned(privateKey, 'dating.example'))
    expect(() => verifierFromEnv(undefined, { AGE_VERIFIER_CERT: cert })).toThrow(/together/)
    expect(() =>
      verifierFromEnv(undefined, { AGE_VERIFIER_KEY: keyPem(other), AGE_VERIFIER_CERT: cert }),
    ).toThrow(/does not match/)
  })
})
