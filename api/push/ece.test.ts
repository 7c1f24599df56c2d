// The local push service's decryption (RFC 8291 / RFC 8188) against the RFC's
// own example, and against messages web-push encrypts.
import { createECDH, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import webpush from 'web-push'
import { DecryptError, decryptPushMessage } from './ece.ts'

const b64 = (s: string) => Buffer.from(s, 'base64url')

function userAgent() {
  const ecdh = createECDH('prime256v1')
  const publicKey = ecdh.generateKeys()
  return { publicKey, privateKey: ecdh.getPrivateKey(), authSecret: randomBytes(16) }
}

describe('decryptPushMessage', () => {
  it('decrypts the example of RFC 8291 Appendix A', () => {
    const privateKey = b64('q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94')
    const ecdh = createECDH('prime256v1')
    ecdh.setPrivateKey(privateKey)
    expect(ecdh.getPublicKey().toString('base64url')).toBe(
      'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
    )
    const body = b64(
      'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
    )
    const plain = decryptPushMessage(body, {
      publicKey: ecdh.getPublicKey(),
      privateKey,
      authSecret: b64('BTBZMqHH6r4Tts7J_aSIgg'),
    })
    expect(plain.toString('utf8')).toBe('When I grow up, I want to be a watermelon')
  })

  it('returns exactly the bytes web-push encrypted, up to the 3,993-byte maximum', () => {
    const ua = userAgent()
    for (const size of [0, 1, 100, 3993]) {
      const payload = randomBytes(size)
      const { cipherText } = webpush.encrypt(
        ua.publicKey.toString('base64url'),
        ua.authSecret.toString('base64url'),
        payload,
        'aes128gcm',
      )
      expect(cipherText.length).toBeLessThanOrEqual(4096)
      expect(decryptPushMessage(cipherText, ua).equals(payload)).toBe(true)
    }
  })

  it('refuses a message for another subscription or a tampered one', () => {
    const ua = userAgent()
    const { cipherText } = webpush.encrypt(
      ua.publicKey.toString('base64url'),
      ua.authSecret.toString('base64url'),
      'secret',
      'aes128gcm',
    )
    expect(() => decryptPushMessage(cipherText, userAgent())).toThrow(DecryptError)
    expect(() => decryptPushMessage(cipherText, { ...ua, authSecret: randomBytes(16) })).toThrow(
      DecryptError,
    )
    const tampered = Buffer.from(cipherText)
    tampered[tampered.length - 20]! ^= 1
    expect(() => decryptPushMessage(tampered, ua)).toThrow(DecryptError)
    expect(() => decryptPushMessage(cipherText.subarray(0, 20), ua)).toThrow(DecryptError)
  })
})
