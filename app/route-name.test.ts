import { describe, expect, it } from 'vitest'
import { rootClasses, routeName } from './route-name.ts'

describe('route names (spec §2)', () => {
  it.each([
    ['/', 'index'],
    ['/members/', 'members'],
    ['/members/$memberId', 'members-memberId'],
    ['/chats/$chatId', 'chats-chatId'],
    ['/pages/service', 'pages-service'],
    ['/login', 'login'],
    // Layout routes (spec §2 layouts) are pathless: not part of the name.
    ['/_default/', 'index'],
    ['/_default/_member/members/', 'members'],
    ['/_default/members/$memberId', 'members-memberId'],
    ['/_chat/chats/$chatId', 'chats-chatId'],
    ['/_default/_member/notifications', 'notifications'],
    ['/_chat/members/$memberId_/chat', 'members-memberId-chat'],
  ])('%s → %s', (id, name) => expect(routeName(id)).toBe(name))

  it('builds the root classes', () => {
    expect(rootClasses('classic', true, '/')).toBe('classic logged-in index')
    expect(rootClasses('classic', false, '/login')).toBe('classic app-login-page')
  })
})
