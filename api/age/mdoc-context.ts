// The crypto that @animo-id/mdoc asks its caller for (the library is
// pluggable): digests, COSE_Sign1 on P-256, and X.509 chain checks. WebCrypto
// (Node's built-in) does the signatures and Node's X509Certificate checks
// the certificate chain. Device authentication by MAC is not offered: the
// OpenID4VP flow here asks for a device signature.
import { X509Certificate } from 'node:crypto'
import type { MdocContext } from '@animo-id/mdoc'

const subtle = globalThis.crypto.subtle
const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const
const ES256 = { name: 'ECDSA', hash: { name: 'SHA-256' } } as const

/** The key alone: a COSE key's key_ops (sometimes repeated) make WebCrypto refuse it. */
const bare = (jwk: {
  kty?: string
  crv?: string
  x?: string
  y?: string
  d?: string
}): JsonWebKey => {
  const { kty, crv, x, y, d } = jwk
  return d ? { kty, crv, x, y, d } : { kty, crv, x, y }
}

/** `at` is the moment certificates must be valid at (the request's clock in tests). */
export const mdocContext = (at: () => Date = () => new Date()): MdocContext => ({
  crypto: {
    digest: async ({ digestAlgorithm, bytes }) =>
      new Uint8Array(await subtle.digest(digestAlgorithm, bytes as BufferSource)),
    random: (length) => globalThis.crypto.getRandomValues(new Uint8Array(length)),
    calculateEphemeralMacKeyJwk: () => {
      throw new Error('MAC device authentication is not supported')
    },
  },
  cose: {
    mac0: {
      sign: () => {
        throw new Error('MAC device authentication is not supported')
      },
      verify: () => false,
    },
    sign1: {
      sign: async ({ jwk, sign1 }) => {
        const { data } = sign1.getRawSigningData()
        const key = await subtle.importKey('jwk', bare(jwk), ECDSA, false, ['sign'])
        return new Uint8Array(await subtle.sign(ES256, key, data as BufferSource))
      },
      verify: async ({ jwk, sign1, options }) => {
        const { data, signature } = sign1.getRawVerificationData(options)
        if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') return false
        const key = await subtle.importKey('jwk', bare(jwk), ECDSA, false, ['verify'])
        return subtle.verify(ES256, key, signature as BufferSource, data as BufferSource)
      },
    },
  },
  x509: {
    getIssuerNameField: ({ certificate, field }) =>
      nameFields(new X509Certificate(certificate).issuer, field),
    getPublicKey: ({ certificate }) =>
      new X509Certificate(certificate).publicKey.export({ format: 'jwk' }) as never,
    validateCertificateChain: ({ trustedCertificates, x5chain }) => {
      // x5chain: leaf first. Each certificate must be signed by the next one
      // (or by a trust anchor) and valid at `at()`, up to a trust anchor.
      const chain = x5chain.map((c) => new X509Certificate(c))
      const anchors = trustedCertificates.map((c) => new X509Certificate(c))
      const date = at()
      const valid = (c: X509Certificate) =>
        new Date(c.validFrom) <= date && date <= new Date(c.validTo)
      for (let i = 0; i < chain.length; i++) {
        const cert = chain[i] as X509Certificate
        if (!valid(cert)) throw new Error('certificate not valid at this time')
        const anchor = anchors.find((a) => a.raw.equals(cert.raw))
        if (anchor) return
        const issuer =
          anchors.find((a) => cert.checkIssued(a) && cert.verify(a.publicKey)) ?? chain[i + 1]
        if (!issuer || !cert.checkIssued(issuer) || !cert.verify(issuer.publicKey))
          throw new Error('certificate chain does not lead to a trust anchor')
        if (anchors.includes(issuer)) {
          if (!valid(issuer)) throw new Error('trust anchor not valid at this time')
          return
        }
      }
      throw new Error('certificate chain does not lead to a trust anchor')
    },
    getCertificateData: ({ certificate }) => {
      const cert = new X509Certificate(certificate)
      return {
        issuerName: cert.issuer.replaceAll('\n', ', '),
        subjectName: cert.subject.replaceAll('\n', ', '),
        pem: cert.toString(),
        serialNumber: cert.serialNumber,
        thumbprint: cert.fingerprint256.replaceAll(':', '').toLowerCase(),
        notBefore: new Date(cert.validFrom),
        notAfter: new Date(cert.validTo),
      }
    },
  },
})

/** The values of one field (`C`, `CN`, ...) of a distinguished name as Node prints it (one per line). */
function nameFields(name: string, field: string): string[] {
  return name
    .split('\n')
    .filter((line) => line.startsWith(`${field}=`))
    .map((line) => line.slice(field.length + 1))
}
