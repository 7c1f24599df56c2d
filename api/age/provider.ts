// The provider interface of age assurance: each way a member can prove to be
// 18 or older (today the EU age verification app) builds a request for the
// member's wallet and checks the wallet's answer. The domain (age.ts) owns
// the request's life (nonce, expiry, one answer) and what is kept.

/** What the domain hands a provider about one request. */
export interface AgeRequestContext {
  /** The request's id (random). */
  requestId: string
  /** One-time random value the answer must be bound to. */
  nonce: string
  /** Where the wallet posts its answer (direct_post). */
  responseUri: string
  /** Where the wallet fetches the signed request object. */
  requestUri: string
  /** The site's name, shown by the wallet. */
  siteName: string
  /** The moment the answer is checked at (certificate validity). */
  now: Date
  /** When the request expires. */
  expiresAt: Date
  /**
   * The OpenID4VP `state` for the request object of the first fetch only
   * (age.ts); absent everywhere else. The wallet returns it with its answer;
   * the domain checks it on an error answer. A presentation needs none: its
   * device signature binds it to the nonce.
   */
  state?: string
}

/** A provider's verdict on a presentation it could verify. */
export interface AgeVerdict {
  /** The issuer attested the holder is 18 or older. */
  over18: boolean
}

/** A presentation that could not be verified (bad signature, untrusted issuer, wrong nonce, garbage). */
export class PresentationRefused extends Error {}

export interface AgeProvider {
  readonly id: string
  /** Whether the provider can run (e.g. it has trust anchors). */
  readonly available: boolean
  /** The link the member's wallet opens (QR code on desktop, same-device link on phones). */
  startRequest(ctx: AgeRequestContext): Promise<{ link: string }>
  /** The signed request object served at the request URI (when the link is by reference). */
  requestObject?(ctx: AgeRequestContext): Promise<string>
  /**
   * Checks the wallet's answer to the request of `ctx`. Throws
   * PresentationRefused when it cannot be trusted; returns the verdict when
   * it can. Never keeps any part of the presentation.
   */
  verifyResponse(ctx: AgeRequestContext, form: Record<string, string>): Promise<AgeVerdict>
}
