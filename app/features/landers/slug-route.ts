import { notFound } from '@tanstack/react-router'

type Slugs = typeof import('../../../api/contract/rules/slugs.ts')

/**
 * A lander route's check of its address (beforeLoad): page not found unless
 * `valid`. The slug tables (every lander's words in seven languages and seven
 * niches) load here, with a lander's page, not with the shell every member
 * downloads (docs/performance.md, "Main-thread JavaScript").
 */
export async function requireSlug(valid: (slugs: Slugs) => boolean): Promise<void> {
  const slugs = await import('../../../api/contract/rules/slugs.ts')
  if (!valid(slugs)) throw notFound()
}
