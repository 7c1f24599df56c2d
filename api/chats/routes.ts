import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { ChatsResponse } from '../contract/index.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { pathOf } from '../http/validate.ts'
import { chatsOf } from './chats.ts'

export const chatsRoutes = (db: Db) =>
  new Hono<AuthEnv>().get(pathOf(endpoints.chats), requireMember(db), async (c) =>
    c.json({ chats: await chatsOf(db, c.get('memberId')) } satisfies ChatsResponse),
  )
