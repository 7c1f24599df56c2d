// The server's push payload as the service worker reads it: built by
// api/push/payload.ts, encrypted and sent by api/push/sender.ts, decrypted by
// the local push service as a browser would, then parsed by sw/push.ts. What
// the notification shows and where a click goes (spec §4: the check URL when
// signed in, the open URL when not) must survive the whole way.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import webpush from 'web-push'
import { type LocalPushService, startLocalPushService } from '../api/push/local-push-service.ts'
import { buildPushPayload, PUSH_PAYLOAD_MAX_BYTES } from '../api/push/payload.ts'
import { createPushSender, type PushSender } from '../api/push/sender.ts'
import { notificationUrl, parsePushPayload, resolveClickUrl } from '../sw/push.ts'

const ORIGIN = 'https://amora.example'

describe('push payload from server to service worker', () => {
  let service: LocalPushService
  let sender: PushSender

  beforeAll(async () => {
    service = await startLocalPushService()
    sender = createPushSender({
      vapid: webpush.generateVAPIDKeys(),
      subject: 'mailto:push@amora.example',
      allowHttpOrigins: [service.origin],
    })
  })
  afterAll(async () => {
    sender?.close()
    await service?.close()
  })

  /** Sends a payload through the local push service; returns what the worker would parse. */
  const throughPush = async (text: string) => {
    const response = await sender.send(service.subscribe(), text, { ttl: 60, urgency: 'high' })
    expect(response.status).toBe(201)
    return parsePushPayload(service.deliveries.at(-1)!.payload.toString('utf8'))
  }

  it('shows the title, body, badge and tag, and clicks to the check or open URL', async () => {
    const payload = buildPushPayload(
      { kind: 'message', from: { id: 3, name: 'Anna' }, conversation: 12, text: 'Ciao!' },
      { locale: 'it', badge: 5 },
    )
    const seen = await throughPush(JSON.stringify(payload))
    expect(seen).toEqual({
      kind: 'message',
      title: 'Nuovo messaggio da Anna',
      body: 'Ciao!',
      url: '/chats/12',
      open_url: '/login?redirect=%2Fchats%2F12',
      badge: 5,
      tag: 'chat-12',
    })
    // As sw.ts stores it on the notification and reads it back on a click.
    const data = {
      url: resolveClickUrl(seen.url, ORIGIN),
      openUrl: resolveClickUrl(seen.open_url, ORIGIN),
    }
    expect(notificationUrl(data, true)).toBe(`${ORIGIN}/chats/12`)
    expect(notificationUrl(data, false)).toBe(`${ORIGIN}/login?redirect=%2Fchats%2F12`)
    // The login page's own redirect parameter takes the member on to the chat.
    expect(new URL(data.openUrl).searchParams.get('redirect')).toBe('/chats/12')
  })

  it('delivers a payload cut to the limit whole', async () => {
    const payload = buildPushPayload(
      { kind: 'message', from: { id: 3, name: 'Ola' }, conversation: 1, text: 'ż😀'.repeat(5000) },
      { locale: 'pl', badge: 1, previewGraphemes: Number.POSITIVE_INFINITY },
    )
    const text = JSON.stringify(payload)
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PUSH_PAYLOAD_MAX_BYTES)
    const seen = await throughPush(text)
    expect(seen.body).toBe(payload.body)
    expect(seen.title).toBe('Nowa wiadomość od: Ola')
  })
})
