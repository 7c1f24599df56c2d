import { createContext, type MouseEvent, type ReactNode, useContext } from 'react'

/**
 * How a lander moves inside the app. The app's own lander routes provide the
 * router's navigation (no page load); the landers' light entry
 * (app/lander.tsx) has no router, so there a link is an ordinary page load.
 */
export const AppNavigate = createContext<((href: string) => void) | null>(null)

const plainClick = (e: MouseEvent) =>
  e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey && !e.defaultPrevented

/** A link into the app that works with and without the router (see AppNavigate). */
export function AppLink({
  href,
  className,
  children,
}: {
  href: string
  className?: string
  children: ReactNode
}) {
  const navigate = useContext(AppNavigate)
  return (
    <a
      href={href}
      className={className}
      onClick={
        navigate
          ? (e) => {
              if (!plainClick(e)) return
              e.preventDefault()
              navigate(href)
            }
          : undefined
      }
    >
      {children}
    </a>
  )
}
