// The EU age verification app (the "mini wallet" of the Commission's
// blueprint): an OpenID4VP 1.0 presentation request for the proof of age
// attestation, an mdoc of doctype eu.europa.ec.av.1 with the element
// age_over_18. @openid4vc/openid4vp builds the request and parses the
// answer; @animo-id/mdoc verifies the DeviceResponse: the issuer's signature
// up to a configured trust anchor (IACA certificate), the device signature
// over the session transcript (bound to our client id, nonce and response
// URI), the digests and the validity period.
import { createPublicKey, sign, X509Certificate } from 'node:crypto'
import { cborEncode, DataItem, type DeviceSignedDocument, Verifier } from '@animo-id/mdoc'
import { type Jwk, type SignJwtCallback, setGlobalConfig } from '@openid4vc/oauth2'
import {
  createOpenid4vpAuthorizationRequest,
  parseOpenid4vpAuthorizationResponse,
} from '@openid4vc/openid4vp'
import { mdocContext } from './mdoc-context.ts'
import {
  type AgeProvider,
  type AgeRequestContext,
  type AgeVerdict,
  PresentationRefused,
} from './provider.ts'
import type { VerifierSource } from './verifier-key.ts'

export const AV_DOCTYPE = 'eu.europa.ec.av.1'
export const AV_NAMESPACE = 'eu.europa.ec.av.1'
/** The DCQL credential query id; the vp_token answers under it. */
const QUERY_ID = 'age'

const unsupported = () => {
  throw new Error('not used by this verifier')
}
const sha256 = async (bytes: Uint8Array) =>
  new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes as BufferSource))

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/**
 * Signs the request object the library assembles (header with `typ`, `alg`
 * and `x5c`; payload with iat, exp and aud): ES256 over the JWS signing
 * input, the signature in the JOSE form (r || s).
 */
const signJwt =
  (source: VerifierSource, hostname: string): SignJwtCallback =>
  async (signer, { header, payload }) => {
    if (signer.method !== 'x5c' || signer.alg !== 'ES256') throw new Error('ES256 x5c only')
    const { key } = await source(hostname)
    const input = `${b64url(header)}.${b64url(payload)}`
    const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
    return {
      jwt: `${input}.${signature.toString('base64url')}`,
      signerJwk: createPublicKey(key).export({ format: 'jwk' }) as Jwk,
    }
  }

const callbacks = {
  hash: sha256,
  signJwt: unsupported,
  verifyJwt: unsupported,
  encryptJwe: unsupported,
  decryptJwe: unsupported,
}

/**
 * The request as sent, rebuilt from the context (it is deterministic), so
 * nothing of it needs storing but the nonce and the state. Client id prefix
 * `x509_san_dns`: the site's host name, which the signing certificate must
 * name; the request object is signed and fetched by `request_uri`. `state`
 * only where the context has one (the first fetch of the request object):
 * checking an answer never asks the library to compare it, since a
 * presentation is bound by its nonce and the domain checks an error's state.
 */
function requestPayload(ctx: AgeRequestContext) {
  return {
    response_type: 'vp_token' as const,
    client_id: `x509_san_dns:${new URL(ctx.responseUri).hostname}`,
    response_uri: ctx.responseUri,
    response_mode: 'direct_post' as const,
    nonce: ctx.nonce,
    ...(ctx.state === undefined ? {} : { state: ctx.state }),
    dcql_query: {
      credentials: [
        {
          id: QUERY_ID,
          format: 'mso_mdoc',
          meta: { doctype_value: AV_DOCTYPE },
          claims: [{ path: [AV_NAMESPACE, 'age_over_18'], intent_to_retain: false }],
        },
      ],
    },
    client_metadata: {
      client_name: ctx.siteName,
      vp_formats_supported: { mso_mdoc: {} },
    },
  }
}

/**
 * The mdoc SessionTranscript of OpenID4VP 1.0 (appendix B.2.6.1, redirect
 * flow without an encrypted response): [null, null, OpenID4VPHandover], the
 * handover hashing the client id, the nonce and the response URI. A
 * presentation made for another request does not verify against it.
 */
export async function sessionTranscript(input: {
  clientId: string
  nonce: string
  responseUri: string
}): Promise<Uint8Array> {
  const info = cborEncode([input.clientId, input.nonce, null, input.responseUri])
  return cborEncode(DataItem.fromData([null, null, ['OpenID4VPHandover', await sha256(info)]]))
}

/** PEM text (one or more certificates) to DER bytes; a bad certificate throws. */
export function pemCertificates(pem: string): Uint8Array[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  return blocks.map((b) => new Uint8Array(new X509Certificate(b).raw))
}

export interface EuAvOptions {
  /** IACA root certificates of the attestation issuers the site trusts (DER). */
  trustAnchors: Uint8Array[]
  /**
   * More anchors made at run time: the built-in test issuer's root, only
   * when the test wallet is on (api/age/config.ts ageTestWalletOn).
   */
  moreAnchors?: () => Promise<Uint8Array[]>
  /** The key and certificate chain that sign a host's requests. */
  verifier: VerifierSource
}

/** The mdoc device response the wallet's form answer carries for the request. */
async function presentedMdoc(
  form: Parameters<AgeProvider['verifyResponse']>[1],
  request: ReturnType<typeof requestPayload>,
): Promise<Uint8Array> {
  try {
    const parsed = await parseOpenid4vpAuthorizationResponse({
      callbacks,
      authorizationResponse: form,
      authorizationRequestPayload: request,
    })
    if (parsed.type !== 'dcql') throw new Error('not a DCQL answer')
    const token = parsed.dcql.presentations[QUERY_ID]?.[0]
    if (typeof token !== 'string') throw new Error('no mdoc presentation')
    return Uint8Array.from(Buffer.from(token, 'base64url'))
  } catch (e) {
    throw new PresentationRefused(`response: ${(e as Error).message}`)
  }
}

/** The documents of a device response, checked against the trust anchors and the session. */
async function verifiedDocuments(
  encoded: Uint8Array,
  session: {
    clientId: string
    nonce: string
    responseUri: string
    trustAnchors: EuAvOptions['trustAnchors']
    now: Date
  },
): Promise<DeviceSignedDocument[]> {
  try {
    const mdoc = await new Verifier().verifyDeviceResponse(
      {
        encodedDeviceResponse: encoded,
        encodedSessionTranscript: await sessionTranscript({
          clientId: session.clientId,
          nonce: session.nonce,
          responseUri: session.responseUri,
        }),
        trustedCertificates: session.trustAnchors,
        now: session.now,
      },
      mdocContext(() => session.now),
    )
    return mdoc.documents as DeviceSignedDocument[]
  } catch (e) {
    throw new PresentationRefused(`mdoc: ${(e as Error).message}`)
  }
}

export function euAvProvider({ trustAnchors, moreAnchors, verifier }: EuAvOptions): AgeProvider {
  // Plain http only on a loopback response URI (tests, development): the
  // library refuses http URLs unless told otherwise, process-wide.
  let insecureAllowed = false
  const allowHttpOnLoopback = (uri: string) => {
    const url = new URL(uri)
    if (url.protocol === 'https:' || insecureAllowed) return
    if (['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
      setGlobalConfig({ allowInsecureUrls: true })
      insecureAllowed = true
    }
  }
  /** The signed request of `ctx` (JAR by reference, signed with the host's key). */
  const signed = async (ctx: AgeRequestContext) => {
    allowHttpOnLoopback(ctx.responseUri)
    const hostname = new URL(ctx.responseUri).hostname
    const { x5c } = await verifier(hostname)
    const remaining = Math.floor((ctx.expiresAt.getTime() - ctx.now.getTime()) / 1000)
    return createOpenid4vpAuthorizationRequest({
      authorizationRequestPayload: requestPayload(ctx),
      jar: {
        requestUri: ctx.requestUri,
        jwtSigner: { method: 'x5c', alg: 'ES256', x5c },
        expiresInSeconds: Math.max(1, remaining),
      },
      callbacks: { signJwt: signJwt(verifier, hostname), encryptJwe: unsupported },
      now: ctx.now,
    })
  }
  return {
    id: 'eu-av',
    available: trustAnchors.length > 0 || moreAnchors !== undefined,
    async startRequest(ctx) {
      // The link holds only the client id and the request_uri.
      return { link: (await signed(ctx)).authorizationRequest }
    },
    async requestObject(ctx) {
      const { jar } = await signed(ctx)
      if (!jar) throw new Error('no request object')
      return jar.authorizationRequestJwt
    },
    async verifyResponse(ctx, form): Promise<AgeVerdict> {
      allowHttpOnLoopback(ctx.responseUri)
      const request = requestPayload({ ...ctx, state: undefined })
      const encoded = await presentedMdoc(form, request)
      const documents = await verifiedDocuments(encoded, {
        clientId: request.client_id,
        nonce: ctx.nonce,
        responseUri: ctx.responseUri,
        trustAnchors: moreAnchors ? [...trustAnchors, ...(await moreAnchors())] : trustAnchors,
        now: ctx.now,
      })
      const doc = documents.find((d) => d.docType === AV_DOCTYPE)
      if (!doc) throw new PresentationRefused('no proof of age attestation')
      const value = doc.getIssuerNameSpace(AV_NAMESPACE)?.get('age_over_18')
      if (typeof value !== 'boolean') throw new PresentationRefused('age_over_18 not disclosed')
      return { over18: value }
    },
  }
}
