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
  ])('%s → %s', (id, name) => expect(routeName(id)).toBe(name))

  it('builds the root classes', () => {
    expect(rootClasses('classic', true, '/')).toBe('classic logged-in index')
    expect(rootClasses('classic', false, '/login')).toBe('classic app-login-page')
  })
})
