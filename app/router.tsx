import { createRouter } from '@tanstack/react-router'
import { session } from './data/session.ts'
import { routeTree } from './routeTree.gen.ts'

export const router = createRouter({
  routeTree,
  context: { session },
  defaultPreload: 'intent',
  scrollRestoration: true,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}
