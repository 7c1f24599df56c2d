// What a photo message's push and mail say (docs/messages-and-credits.md,
// "Photos in chats"): "sent you a photo", in the recipient's language, the
// Polish verb agreeing with the sender; a text message's are unchanged.
import { describe, expect, it } from 'vitest'
import { renderMail } from '../mail/templates.ts'
import { buildPushPayload, type PushEvent } from '../push/payload.ts'

const anna = { id: 7, name: 'Anna' }
const photo: PushEvent = {
  kind: 'message',
  from: anna,
  conversation: 42,
  text: 'At the beach',
  photo: true,
}

describe('a photo message in a push and a mail', () => {
  it('the push says "sent you a photo" in the recipient\'s language, not the caption', () => {
    const body = (locale: string, fromGender?: string) =>
      buildPushPayload(photo, { locale, badge: 1, fromGender }).body
    expect(body('en')).toBe('Anna sent you a photo.')
    expect(body('nl')).toBe('Anna heeft je een foto gestuurd.')
    expect(body('de')).toBe('Anna hat Ihnen ein Foto geschickt.')
    expect(body('it')).toBe('Anna Le ha inviato una foto.')
    expect(body('fr')).toBe('Anna vous a envoyé une photo.')
    expect(body('es')).toBe('Anna le ha enviado una foto.')
    expect(body('pl', 'female')).toBe('Anna wysłała Ci zdjęcie.')
    expect(body('pl', 'male')).toBe('Anna wysłał Ci zdjęcie.')
    const text = buildPushPayload({ ...photo, photo: undefined }, { locale: 'en', badge: 1 })
    expect(text.body).toBe('At the beach')
  })

  it('the mail says "sent you a photo" in its subject and first line', () => {
    const vars = (photo?: boolean) => ({
      name: 'Bram',
      site: 'Amora',
      link: 'https://amora.example/chats/42',
      message: {
        sender: 'Anna',
        settings: 'https://amora.example/notifications',
        ...(photo ? { photo } : {}),
      },
    })
    const mail = renderMail('new_message', 'en', vars(true))
    expect(mail.subject).toBe('Anna sent you a photo on Amora')
    expect(mail.text).toContain('Anna sent you a photo on Amora.')
    expect(renderMail('new_message', 'de', vars(true)).subject).toBe(
      'Anna hat Ihnen auf Amora ein Foto geschickt',
    )
    expect(renderMail('new_message', 'en', vars()).subject).toBe('Anna sent you a message on Amora')
  })
})
