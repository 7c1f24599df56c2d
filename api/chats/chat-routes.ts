import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { ChatStartQuery, type ChatStartResponse } from '../contract/index.ts'
import { conversationWith } from './conversations.ts'
import { validate } from '../http/validate.ts'

/**
 * GET /api/chat.php?profile= (spec §7): the id of the conversation with that
 * member, made on first use; the client then navigates to /chats/{id}. A GET
 * that may create a row keeps the spec's contract; it is safe to repeat (one
 * conversation per pair) and gives a cross-site caller nothing back.
 */
export const chatRoutes = (db: Db) =>
  new Hono<AuthEnv>().get(
    '/chat.php',
    requireMember(db),
    validate('query', ChatStartQuery),
    async (c) => {
      const { profile } = c.req.valid('query')
      const id = await conversationWith(db, c.get('memberId'), profile)
      return c.json({ id } satisfies ChatStartResponse)
    },
  )
