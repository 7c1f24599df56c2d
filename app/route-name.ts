/**
 * Spec §2 route names from router ids: '/members/$memberId' → 'members-memberId',
 * '/chats/' → 'chats', '/' → 'index'.
 */
export function routeName(routeId: string): string {
  const name = routeId
    .replace(/^\/|\/$/g, '')
    .replaceAll('$', '')
    .replaceAll('/', '-')
  return name === '' ? 'index' : name
}

/** Spec §2 root classes: template name, logged-in, index or app-{routename}-page. */
export function rootClasses(template: string, loggedIn: boolean, routeId: string): string {
  const name = routeName(routeId)
  return [template, loggedIn && 'logged-in', name === 'index' ? 'index' : `app-${name}-page`]
    .filter(Boolean)
    .join(' ')
}
