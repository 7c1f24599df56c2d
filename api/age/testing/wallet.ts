// A local test issuer and wallet for the EU age verification flow. The
// issuer makes an IACA root and a document signer certificate and issues
// real signed proof-of-age mdocs (eu.europa.ec.av.1, age_over_18); the
// wallet opens an `openid4vp://` link, resolves the request with
// @openid4vc/openid4vp, builds a real DeviceResponse signed with the
// device key over the session transcript of that request, and posts it to
// the response URI. For tests only: nothing here runs in the server.
import 'reflect-metadata'
import {
  DeviceRequest,
  DeviceResponse,
  Document,
  MDoc,
  uint8ArrayToBase64Url,
} from '@animo-id/mdoc'
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
const wallet = new Openid4vpClient({
  callbacks: {
    hash: async (data) => new Uint8Array(await subtle.digest('SHA-256', data as BufferSource)),
    fetch: (...args: Parameters<typeof fetch>) => fetch(...args),
    signJwt: unsupported,
    verifyJwt: unsupported,
    encryptJwe: unsupported,
    decryptJwe: unsupported,
  },
})

/** The wallet: answers the request of `link` with `credential`. */
export async function present(
  link: string,
  credential: TestCredential,
  options: PresentOptions = {},
): Promise<Presented> {
  const parsed = wallet.parseOpenid4vpAuthorizationRequest({ authorizationRequest: link })
  const resolved = await wallet.resolveOpenId4vpAuthorizationRequest({
    authorizationRequestPayload: parsed.params as never,
  })
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
  const { authorizationResponsePayload } = await wallet.createOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: resolved.authorizationRequestPayload,
    authorizationResponsePayload: { vp_token: { age: [uint8ArrayToBase64Url(bytes)] } },
  })
  const body = new URLSearchParams({
    vp_token: JSON.stringify(authorizationResponsePayload.vp_token),
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

/** The wallet's "decline": an OpenID4VP error answer. */
export async function decline(link: string, post: PresentOptions['post']): Promise<Response> {
  const parsed = wallet.parseOpenid4vpAuthorizationRequest({ authorizationRequest: link })
  const uri = (parsed.params as { response_uri: string }).response_uri
  const body = new URLSearchParams({ error: 'access_denied' }).toString()
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
