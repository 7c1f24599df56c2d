import { createContext, type MouseEvent, type ReactNode, useContext } from 'react'

/**
 * How a page moves inside the site, with or without the router. The app
 * provides the router's navigation and location (app/ui/RouterNavigate.tsx,
 * at its root: no page load); the light entry (app/lander.tsx: the landers
 * and a guest's first page) has no router, so there a link is an ordinary
 * page load and the path is the document's. Components a guest's first page
 * shares with the app use these instead of the router's Link and hooks, so
 * that page never downloads the router (docs/performance.md, "Main-thread JavaScript").
 */
export interface AppNavigation {
  navigate: (href: string) => void
  path: string
}

export const AppNavigate = createContext<AppNavigation | null>(null)

const pageLoad = (href: string) => window.location.assign(href)

/** Navigates to `href` (a same-site path, with query or hash): the router's, else a page load. */
export function useAppNavigate(): (href: string) => void {
  return useContext(AppNavigate)?.navigate ?? pageLoad
}

/** The current path: the router's location, else the document's. */
export function usePathname(): string {
  const nav = useContext(AppNavigate)
  return nav ? nav.path : typeof window === 'undefined' ? '/' : window.location.pathname
}

/** Whether `href` is the current page or one of its sub-pages (as the router's active links). */
export const isCurrent = (path: string, href: string) =>
  href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`)

const plainClick = (e: MouseEvent) =>
  e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey && !e.defaultPrevented

/** A link into the app that works with and without the router (see AppNavigate). */
export function AppLink({
  href,
  className,
  children,
  current,
  ...rest
}: {
  href: string
  className?: string
  children: ReactNode
  /** Marks the link `aria-current="page"` while its page (or a sub-page) shows. */
  current?: boolean
  tabIndex?: number
  title?: string
  'aria-hidden'?: boolean | 'true'
  'aria-describedby'?: string
}) {
  const nav = useContext(AppNavigate)
  const path = usePathname()
  return (
    <a
      {...rest}
      href={href}
      className={className}
      aria-current={current && isCurrent(path, href) ? 'page' : undefined}
      onClick={
        nav
          ? (e) => {
              if (!plainClick(e)) return
              e.preventDefault()
              nav.navigate(href)
            }
          : undefined
      }
    >
      {children}
    </a>
  )
}
