// Validation of messages the page posts to the service worker. postMessage
// data is untyped at run time, so the worker checks the shape before acting.

import type { PageToSwMessage } from './messages.ts'
import { badgeCount } from './push.ts'

export function parsePageMessage(data: unknown): PageToSwMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const message = data as { type?: unknown; count?: unknown }
  switch (message.type) {
    case 'SKIP_WAITING':
      return { type: 'SKIP_WAITING' }
    case 'CLEAR_USER_CACHES':
      return { type: 'CLEAR_USER_CACHES' }
    case 'SESSION':
      return { type: 'SESSION' }
    case 'SET_BADGE': {
      const count = badgeCount(message.count)
      return count === undefined ? undefined : { type: 'SET_BADGE', count }
    }
    default:
      return undefined
  }
}
