// What a voice message's push and mail say (docs/messages-and-credits.md,
// "Voice messages"): "sent you a voice message", in the recipient's
// language (all seven), the Polish verb agreeing with the sender.
import { describe, expect, it } from 'vitest'
import { renderMail } from '../mail/templates.ts'
import { buildPushPayload, type PushEvent } from '../push/payload.ts'

const anna = { id: 7, name: 'Anna' }
const voice: PushEvent = { kind: 'message', from: anna, conversation: 42, text: '', voice: true }

describe('a voice message in a push and a mail', () => {
  it('the push says "sent you a voice message" in the recipient\'s language', () => {
    const body = (locale: string, fromGender?: string) =>
      buildPushPayload(voice, { locale, badge: 1, fromGender }).body
    expect(body('en')).toBe('Anna sent you a voice message.')
    expect(body('nl')).toBe('Anna heeft je een spraakbericht gestuurd.')
    expect(body('de')).toBe('Anna hat Ihnen eine Sprachnachricht geschickt.')
    expect(body('it')).toBe('Anna Le ha inviato un messaggio vocale.')
    expect(body('fr')).toBe('Anna vous a envoyé un message vocal.')
    expect(body('es')).toBe('Anna le ha enviado un mensaje de voz.')
    expect(body('pl', 'female')).toBe('Anna wysłała Ci wiadomość głosową.')
    expect(body('pl', 'male')).toBe('Anna wysłał Ci wiadomość głosową.')
    expect(body('pl')).toBe('Nowa wiadomość głosowa od: Anna.')
  })

  it('the mail says "sent you a voice message" in its subject and first line', () => {
    const vars = {
      name: 'Bram',
      site: 'Amora',
      link: 'https://amora.example/chats/42',
      message: { sender: 'Anna', settings: 'https://amora.example/notifications', voice: true },
    }
    const mail = renderMail('new_message', 'en', vars)
    expect(mail.subject).toBe('Anna sent you a voice message on Amora')
    expect(mail.text).toContain('Anna sent you a voice message on Amora.')
    expect(renderMail('new_message', 'nl', vars).subject).toBe(
      'Anna heeft je een spraakbericht gestuurd op Amora',
    )
    expect(renderMail('new_message', 'de', vars).subject).toBe(
      'Anna hat Ihnen auf Amora eine Sprachnachricht geschickt',
    )
    expect(renderMail('new_message', 'it', vars).subject).toBe(
      'Anna Le ha inviato un messaggio vocale su Amora',
    )
    expect(renderMail('new_message', 'fr', vars).subject).toBe(
      'Anna vous a envoyé un message vocal sur Amora',
    )
    expect(renderMail('new_message', 'es', vars).subject).toBe(
      'Anna le ha enviado un mensaje de voz en Amora',
    )
    expect(renderMail('new_message', 'pl', vars).text).toContain(
      'Anna przesyła Ci wiadomość głosową w serwisie Amora.',
    )
  })
})
