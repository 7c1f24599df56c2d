// A local test issuer and wallet for the EU age verification flow. The
// issuer makes an IACA root and a document signer certificate and issues
// real signed proof-of-age mdocs (eu.europa.ec.av.1, age_over_18); the
// wallet opens an `openid4vp://` link, resolves the request with
// @openid4vc/openid4vp, builds a real DeviceResponse signed with the
// device key over the session transcript of that request, and posts it to
// the response URI. The request comes signed, by reference: the wallet
// fetches it from the link's request_uri, verifies its ES256 signature with
// the leaf certificate of its x5c header (and each certificate's signature
// by the next), and the library checks that the leaf's SAN dNSName is the
// client id (x509_san_dns). A request that does not verify is refused, not
// answered. Every answer, a presentation or an error, returns the request's
// `state` when the request object had one, as OpenID4VP 1.0 asks. Trust in
// the chain's root (the EU's registered relying parties) is not checked
// here. The tests use it, and so does the site's built-in test wallet
// (api/age/test-wallet.ts), only on a demo start or with AGE_TEST_WALLET=on.
import 'reflect-metadata'
import { verify, X509Certificate } from 'node:crypto'
import {
  DeviceRequest,
  DeviceResponse,
  Document,
  MDoc,
  uint8ArrayToBase64Url,
} from '@animo-id/mdoc'
import { setGlobalConfig, type VerifyJwtCallback } from '@openid4vc/oauth2'
import { Openid4vpClient } from '@openid4vc/openid4vp'
import * as x509 from '@peculiar/x509'
import { AV_DOCTYPE, AV_NAMESPACE, sessionTranscript } from '../eu-av.ts'
import { mdocContext } from '../mdoc-context.ts'

const subtle = globalThis.crypto.subtle
const P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const
const DAY = 86_400_000

const keyPair = () => subtle.generateKey(P256, true, ['sign', 'verify']) as Promise<CryptoKeyPair>
const jwkOf = async (key: CryptoKey) => {
  const { kty, crv, x, y, d } = await subtle.exportKey('jwk', key)
  return d ? { kty, crv, x, y, d } : { kty, crv, x, y }
}

export interface TestCredential {
  mdoc: MDoc
  devicePrivateJwk: Record<string, unknown>
}

export interface TestIssuer {
  /** The IACA root, PEM: the trust anchor a verifier configures (AGE_TRUST_ANCHORS). */
  anchorPem: string
  anchorDer: Uint8Array
  /** A signed proof-of-age mdoc bound to a fresh device key. */
  issue(input: { ageOver18: boolean }): Promise<TestCredential>
}

export async function testIssuer(name = 'Test Age Issuer'): Promise<TestIssuer> {
  const now = Date.now()
  const iacaKeys = await keyPair()
  const iaca = await x509.X509CertificateGenerator.createSelfSigned({
    name: `C=NL, CN=${name} IACA`,
    keys: iacaKeys,
    signingAlgorithm: SIGNING,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
    ],
  })
  const signerKeys = await keyPair()
  const signer = await x509.X509CertificateGenerator.create({
    subject: `C=NL, CN=${name} DS`,
    issuer: iaca.subject,
    publicKey: signerKeys.publicKey,
    signingKey: iacaKeys.privateKey,
    signingAlgorithm: SIGNING,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 90 * DAY),
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  })
  const signerJwk = await jwkOf(signerKeys.privateKey)
  const ctx = mdocContext()
  return {
    anchorPem: iaca.toString('pem'),
    anchorDer: new Uint8Array(iaca.rawData),
    async issue({ ageOver18 }) {
      const device = await keyPair()
      const document = await new Document(AV_DOCTYPE, ctx)
        .addIssuerNameSpace(AV_NAMESPACE, { age_over_18: ageOver18 })
        .addValidityInfo({ signed: new Date(now - DAY), validUntil: new Date(now + 90 * DAY) })
        .addDeviceKeyInfo({ deviceKey: (await jwkOf(device.publicKey)) as never })
        .sign(
          {
            issuerPrivateKey: signerJwk as never,
            issuerCertificate: new Uint8Array(signer.rawData),
            alg: 'ES256',
          },
          ctx,
        )
      return { mdoc: new MDoc([document]), devicePrivateJwk: await jwkOf(device.privateKey) }
    },
  }
}

export interface PresentOptions {
  /** Posts the answer (default: fetch). API tests route it into the app. */
  post?: (url: string, body: string) => Promise<Response>
  /** Fetches the request object at request_uri (default: fetch). */
  get?: (url: string) => Promise<Response>
  /** Bind the presentation to this nonce instead of the request's (a wrong nonce). */
  nonce?: string
  /** Turn a disclosed `false` into `true` after signing (a forged answer). */
  tamper?: boolean
}

export interface Presented {
  response: Response
  /** The form as posted, to post it again (a replay). */
  body: string
  responseUri: string
}

const unsupported = () => {
  throw new Error('not used by the test wallet')
}
const certificateOf = (entry: string) => new X509Certificate(Buffer.from(entry, 'base64'))

/**
 * The request object's signature, checked with the x5c leaf's key; each
 * certificate of the chain must be valid now and signed by the next one.
 */
const verifyJwt: VerifyJwtCallback = async (signer, { header, compact }) => {
  if (signer.method !== 'x5c' || header.alg !== 'ES256') return { verified: false }
  if (header.typ !== 'oauth-authz-req+jwt') return { verified: false }
  const chain = signer.x5c.map(certificateOf)
  const now = new Date()
  for (const [i, cert] of chain.entries()) {
    if (new Date(cert.validFrom) > now || new Date(cert.validTo) < now) return { verified: false }
    const next = chain[i + 1]
    if (next && !cert.verify(next.publicKey)) return { verified: false }
  }
  const leaf = chain[0]
  const [h, p, sig] = compact.split('.')
  if (!leaf || !h || !p || !sig) return { verified: false }
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(sig, 'base64url'),
  )
  if (!ok) return { verified: false }
  return { verified: true, signerJwk: leaf.publicKey.export({ format: 'jwk' }) as never }
}

const sanOf = (entry: string) => {
  const names = (certificateOf(entry).subjectAltName ?? '').split(',').map((s) => s.trim())
  return {
    sanDnsNames: names.filter((n) => n.startsWith('DNS:')).map((n) => n.slice(4)),
    sanUriNames: names.filter((n) => n.startsWith('URI:')).map((n) => n.slice(4)),
  }
}

const walletOf = (get?: PresentOptions['get']) =>
  new Openid4vpClient({
    callbacks: {
      hash: async (data) => new Uint8Array(await subtle.digest('SHA-256', data as BufferSource)),
      fetch: (async (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
        get ? get(String(input)) : fetch(input, init)) as typeof fetch,
      signJwt: unsupported,
      verifyJwt,
      getX509CertificateMetadata: sanOf,
      encryptJwe: unsupported,
      decryptJwe: unsupported,
    },
  })

/** The request of `link`, fetched by request_uri and verified; throws when it does not verify. */
async function resolve(link: string, get?: PresentOptions['get']) {
  const wallet = walletOf(get)
  // Plain http only on a loopback request URI (a local test server), as the
  // server allows it (eu-av.ts); the library refuses http URLs otherwise.
  const uri = new URL(link).searchParams.get('request_uri')
  if (uri && ['localhost', '127.0.0.1'].includes(new URL(uri).hostname)) {
    setGlobalConfig({ allowInsecureUrls: true })
  }
  const parsed = wallet.parseOpenid4vpAuthorizationRequest({ authorizationRequest: link })
  const resolved = await wallet.resolveOpenId4vpAuthorizationRequest({
    authorizationRequestPayload: parsed.params as never,
  })
  if (!resolved.jar) throw new Error('the wallet takes signed requests only')
  return { wallet, resolved }
}

/** The wallet: answers the request of `link` with `credential`. */
export async function present(
  link: string,
  credential: TestCredential,
  options: PresentOptions = {},
): Promise<Presented> {
  const { wallet, resolved } = await resolve(link, options.get)
  const request = resolved.authorizationRequestPayload as {
    client_id: string
    nonce: string
    response_uri: string
  }
  const transcript = await sessionTranscript({
    clientId: request.client_id,
    nonce: options.nonce ?? request.nonce,
    responseUri: request.response_uri,
  })
  const ctx = mdocContext()
  const signed = await DeviceResponse.from(credential.mdoc)
    .usingDeviceRequest(
      DeviceRequest.from('1.0', [
        {
          itemsRequestData: {
            docType: AV_DOCTYPE,
            nameSpaces: new Map([[AV_NAMESPACE, new Map([['age_over_18', false]])]]),
          },
        },
      ]),
    )
    .usingSessionTranscriptBytes(transcript)
    .authenticateWithSignature(credential.devicePrivateJwk as never, 'ES256')
    .sign(ctx)
  let bytes = signed.encode()
  if (options.tamper) bytes = flipDisclosedFalse(bytes)
  // The library copies the request's state into the answer.
  const { authorizationResponsePayload } = await wallet.createOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: resolved.authorizationRequestPayload,
    authorizationResponsePayload: { vp_token: { age: [uint8ArrayToBase64Url(bytes)] } },
  })
  const { state } = authorizationResponsePayload
  const body = new URLSearchParams({
    vp_token: JSON.stringify(authorizationResponsePayload.vp_token),
    ...(state === undefined ? {} : { state }),
  }).toString()
  const post =
    options.post ??
    ((url: string, b: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: b,
      }))
  return {
    response: await post(request.response_uri, body),
    body,
    responseUri: request.response_uri,
  }
}

/**
 * The wallet's "decline": an OpenID4VP error answer, with the request's
 * state when the request object it fetched had one.
 */
export async function decline(
  link: string,
  post: PresentOptions['post'],
  get?: PresentOptions['get'],
): Promise<Response> {
  const { resolved } = await resolve(link, get)
  const { response_uri: uri, state } = resolved.authorizationRequestPayload as {
    response_uri: string
    state?: string
  }
  const body = new URLSearchParams({
    error: 'access_denied',
    ...(state === undefined ? {} : { state }),
  }).toString()
  return post
    ? post(uri, body)
    : fetch(uri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      })
}

/** The CBOR of `elementValue: false` (text key, then 0xf4) with 0xf5 (true) in its place. */
function flipDisclosedFalse(bytes: Uint8Array): Uint8Array {
  const key = new TextEncoder().encode('elementValue')
  const out = bytes.slice()
  for (let i = 0; i + key.length + 1 < out.length; i++) {
    if (out[i] !== 0x60 + key.length) continue
    if (key.every((b, j) => out[i + 1 + j] === b) && out[i + 1 + key.length] === 0xf4) {
      out[i + 1 + key.length] = 0xf5
      return out
    }
  }
  throw new Error('no disclosed false value to flip')
}
