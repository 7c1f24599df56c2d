// The site's VAPID key pair for Web Push (api/push signs with it; the public
// key is the settings' push_pub). Kept in site_settings, so it lives with the
// settings domain that owns the table; push imports it from here.
import { generateKeyPairSync } from 'node:crypto'
import type { Db } from '../../db/client.ts'
import { keptSecret } from './stored.ts'

/** VAPID key pair for Web Push: public key raw (65 bytes), private key `d`, both base64url. */
export interface VapidKeys {
  publicKey: string
  privateKey: string
}

/** Stored under a key the public settings never expose (see settings.ts). */
const SECRET_KEY = 'secret.vapid'

/**
 * The site's VAPID keys: from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set,
 * else generated on first start and kept in the database, so that every API
 * process signs with the same key and subscriptions survive restarts. No key
 * is ever in the repository.
 */
export async function vapidKeys(db: Db, env = process.env): Promise<VapidKeys> {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
  }
  // Once stored the keys never change (the first insert wins and every
  // process reads that row back), so each database handle reads them once
  // instead of on every settings request.
  let keys = stored.get(db)
  if (!keys) {
    keys = storedOrNew(db)
    stored.set(db, keys)
    keys.catch(() => stored.delete(db)) // a failed read is tried again next time
  }
  return keys
}

const stored = new WeakMap<Db, Promise<VapidKeys>>()

async function storedOrNew(db: Db): Promise<VapidKeys> {
  // Two processes starting at once: the first insert wins, both read it back.
  const keys = await keptSecret(db, SECRET_KEY, newKeys, isVapidKeys)
  if (!keys) throw new Error(`site_settings: ${SECRET_KEY} is not a key pair`)
  return keys
}

const isVapidKeys = (value: unknown): value is VapidKeys =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as VapidKeys).publicKey === 'string' &&
  typeof (value as VapidKeys).privateKey === 'string'

function newKeys(): VapidKeys {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const pub = publicKey.export({ format: 'jwk' })
  const priv = privateKey.export({ format: 'jwk' })
  const raw = Buffer.concat([
    Buffer.from([0x04]),
    Buffer.from(pub.x ?? '', 'base64url'),
    Buffer.from(pub.y ?? '', 'base64url'),
  ])
  return { publicKey: raw.toString('base64url'), privateKey: priv.d ?? '' }
}
