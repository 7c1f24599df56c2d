// The setup the chat tests share (messages, photos, gifts, voice): three
// members (Anna, Bram, Cas) logged in, the conversation of Anna and Bram
// started, and, when asked, Anna's credits and an opening text from her, so
// the sends a test is about are not first messages.
import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'
import type { Db } from '../../db/client.ts'
import type { Api } from '../app.ts'
import { credit } from '../credits/ledger.ts'
import { login, send } from './http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from './seed.ts'

export interface ChatPair {
  a: MemberRow
  b: MemberRow
  /** A third member, a stranger to the conversation `ab`. */
  c: MemberRow
  cookieA: string
  cookieB: string
  cookieC: string
  /** The conversation of `a` and `b`. */
  ab: number
}

/** Starts (or finds) the conversation of the member of `cookie` with `profile`; its id. */
export async function startChat(app: Api, cookie: string, profile: number): Promise<number> {
  const res = await send(app, `/api/chat.php?profile=${profile}`, { cookie })
  expect(res.status).toBe(200)
  return ((await res.json()) as { id: number }).id
}

/**
 * The three members and the conversation of `a` and `b`; with `credits`,
 * `a` is credited that many (a 'bonus'); with `opened`, `a` opens the
 * conversation with a text (which costs the message price).
 */
export async function chatPair(
  app: Api,
  db: Db,
  options: { credits?: number; opened?: boolean } = {},
): Promise<ChatPair> {
  const a = await addMember(db, { name: 'Anna', gender: 'female', country: 'NL' })
  const b = await addMember(db, { name: 'Bram', gender: 'male', country: 'NL' })
  const c = await addMember(db, { name: 'Cas', gender: 'male', country: 'NL' })
  const cookieA = await login(app, a.email, TEST_PASSWORD)
  const cookieB = await login(app, b.email, TEST_PASSWORD)
  const cookieC = await login(app, c.email, TEST_PASSWORD)
  const ab = await startChat(app, cookieA, b.id)
  if (options.credits) {
    const amount = options.credits
    await db.transaction((tx) => credit(tx, a.id, amount, 'bonus', 'test'))
  }
  if (options.opened) {
    const opened = await send(app, '/api/messages.php', {
      method: 'POST',
      cookie: cookieA,
      body: { conversation: ab, text: 'Hi Bram', client_id: randomUUID() },
    })
    expect(opened.status).toBe(201)
  }
  return { a, b, c, cookieA, cookieB, cookieC, ab }
}
