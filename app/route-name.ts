/**
 * Spec §2 route names from router ids: '/members/$memberId' → 'members-memberId',
 * '/chats/' → 'chats', '/' → 'index'. Pathless layout segments ('/_default',
 * '/_member') are not part of a name; `$memberId_` (a path that leaves its
 * parent's layout) names as `memberId`.
 */
export function routeName(routeId: string): string {
  const name = routeId
    .replace(/\/_(default|member|chat|empty|lander)(?=\/|$)/g, '')
    .replace(/_(?=\/|$)/g, '')
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
