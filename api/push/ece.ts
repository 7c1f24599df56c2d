// Decryption of Web Push messages (RFC 8291 on RFC 8188 aes128gcm), what a
// browser does with a push before its service worker sees it. Only the local
// push service uses it: the server encrypts with the web-push package, and
// decrypting here with node:crypto alone checks that work independently.
import { createDecipheriv, createECDH, hkdfSync } from 'node:crypto'

/** The user agent's side of a subscription: its P-256 key pair and auth secret. */
export interface UserAgentKeys {
  /** Uncompressed point, 65 bytes (the subscription's p256dh). */
  publicKey: Buffer
  /** 32 bytes. */
  privateKey: Buffer
  /** 16 bytes (the subscription's auth). */
  authSecret: Buffer
}

export class DecryptError extends Error {}

const TAG_BYTES = 16
const KEY_BYTES = 65

const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) =>
  Buffer.from(hkdfSync('sha256', ikm, salt, info, length))

const label = (text: string) => Buffer.from(`${text}\0`, 'latin1')

/** The plaintext of an aes128gcm push message body, or DecryptError. */
export function decryptPushMessage(body: Buffer, ua: UserAgentKeys): Buffer {
  // RFC 8188 §2.1 header: salt (16) | rs (4) | idlen (1) | keyid (idlen).
  if (body.length < 21) throw new DecryptError('body shorter than the aes128gcm header')
  const salt = body.subarray(0, 16)
  const rs = body.readUInt32BE(16)
  const idlen = body[20]!
  // RFC 8291 §4: the key id is the application server's ephemeral public key.
  if (idlen !== KEY_BYTES) throw new DecryptError(`key id of ${idlen} bytes, not ${KEY_BYTES}`)
  if (rs <= TAG_BYTES + 1) throw new DecryptError(`record size ${rs} too small`)
  const senderKey = body.subarray(21, 21 + KEY_BYTES)
  const content = body.subarray(21 + KEY_BYTES)
  if (content.length === 0) throw new DecryptError('no records')

  let secret: Buffer
  try {
    const ecdh = createECDH('prime256v1')
    ecdh.setPrivateKey(ua.privateKey)
    secret = ecdh.computeSecret(senderKey)
  } catch {
    throw new DecryptError('the sender key is not a P-256 point')
  }
  // RFC 8291 §3.4: IKM from the ECDH secret, the auth secret and both keys.
  const keyInfo = Buffer.concat([label('WebPush: info'), ua.publicKey, senderKey])
  const ikm = hkdf(secret, ua.authSecret, keyInfo, 32)
  // RFC 8188 §2.2, §2.3: content key and nonce base from the salt.
  const cek = hkdf(ikm, salt, label('Content-Encoding: aes128gcm'), 16)
  const nonceBase = hkdf(ikm, salt, label('Content-Encoding: nonce'), 12)

  const parts: Buffer[] = []
  const count = Math.ceil(content.length / rs)
  for (let seq = 0; seq < count; seq++) {
    const record = content.subarray(seq * rs, (seq + 1) * rs)
    if (record.length <= TAG_BYTES) throw new DecryptError(`record ${seq} too short`)
    const decipher = createDecipheriv('aes-128-gcm', cek, nonceFor(nonceBase, seq))
    decipher.setAuthTag(record.subarray(record.length - TAG_BYTES))
    let plain: Buffer
    try {
      plain = Buffer.concat([
        decipher.update(record.subarray(0, record.length - TAG_BYTES)),
        decipher.final(),
      ])
    } catch {
      throw new DecryptError(`record ${seq} fails authentication`)
    }
    parts.push(unpad(plain, seq === count - 1, seq))
  }
  return Buffer.concat(parts)
}

/**
 * RFC 8188 §2.3: the nonce base XOR the record's sequence number (96-bit,
 * big-endian). A body holds far fewer than 2^32 records, so only the last 4
 * bytes change (JavaScript's ^ works on 32 bits).
 */
function nonceFor(base: Buffer, seq: number): Buffer {
  const nonce = Buffer.from(base)
  nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8)
  return nonce
}

/** RFC 8188 §2: data, then delimiter 2 (last record) or 1, then zeros. */
function unpad(plain: Buffer, last: boolean, seq: number): Buffer {
  let end = plain.length - 1
  while (end >= 0 && plain[end] === 0) end--
  if (end < 0) throw new DecryptError(`record ${seq} has no padding delimiter`)
  const expected = last ? 2 : 1
  if (plain[end] !== expected) throw new DecryptError(`record ${seq} has a wrong padding delimiter`)
  return plain.subarray(0, end)
}
