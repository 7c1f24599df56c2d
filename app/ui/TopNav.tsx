import {
  Bell,
  Heart,
  LogIn,
  LogOut,
  Menu,
  MessageCircle,
  UserPlus,
  UserRound,
  Users,
  X,
} from 'lucide-react'
import { type RefObject, useEffect, useId, useRef, useState } from 'react'
import { m } from '../../messages/paraglide/messages.js'
import { useSession } from '../data/session.ts'
import { worker } from '../data/worker.ts'
import { useLook } from '../theme/site.ts'
import { AppLink, useAppNavigate, usePathname } from './AppLink.tsx'
import { showFailureToast } from './failure-toast.ts'
import { NavCount, useCountLabel, useNavCounts, useTitleCount } from './NavCount.tsx'
import { startOutboxToasts } from './outbox-toasts.ts'

/** Logs out, then shows the login page. */
async function logOut(navigate: ReturnType<typeof useAppNavigate>) {
  const res = await worker().logout()
  // Spec §4: on a logout error the user is still cleared and login shown;
  // the worker ends the session either way (store, pictures, badge).
  if (!res.ok) showFailureToast((t) => t.logoutFailed())
  navigate('/login')
}

/**
 * An open menu takes the focus to its first item and closes on Escape (the
 * focus back on the toggle) or on a press outside it and its toggle.
 */
function useMenuDismissal(
  open: boolean,
  setOpen: (open: boolean) => void,
  menu: RefObject<HTMLElement | null>,
  toggle: RefObject<HTMLButtonElement | null>,
) {
  useEffect(() => {
    if (!open) return
    menu.current?.querySelector<HTMLElement>('a, button')?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return
      setOpen(false)
      toggle.current?.focus()
    }
    const onPointer = (e: PointerEvent) => {
      const t = e.target as Node
      if (!menu.current?.contains(t) && !toggle.current?.contains(t)) setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('pointerdown', onPointer)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('pointerdown', onPointer)
    }
  }, [open, setOpen, menu, toggle])
}

/** `preview` shows a state regardless of the session (the /_dev/top-nav page). */
/**
 * The top bar. A member's links collapse into a menu button on small screens
 * (app/theme/nav.css): the button says whether the menu is open
 * (aria-expanded), opening moves focus to the first link, Escape closes and
 * returns focus to the button, and following a link closes it. Spec §9
 * template flags hide the navigation, chat, likes or notifications links.
 */
export function TopNav({ preview }: { preview?: 'guest' | 'member' } = {}) {
  const { user: sessionUser } = useSession()
  const user = preview ? preview === 'member' : sessionUser !== null
  const { flags } = useLook()
  const navigate = useAppNavigate()
  const path = usePathname()
  const [open, setOpen] = useState(false)
  const menuId = useId()
  const toggle = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLElement>(null)
  const counts = useNavCounts()
  const shown = {
    unread: flags.chat ? counts.unread : 0,
    likes: flags.likes ? counts.likes : 0,
  }
  const total = user ? shown.unread + shown.likes : 0
  useTitleCount(preview ? 0 : total)
  const chatsCount = useCountLabel(shown.unread)
  const likesCount = useCountLabel(shown.likes)
  const menuCount = useCountLabel(total)
  // Actions the server refused for good (likes, ...) show as toasts on every page.
  useEffect(startOutboxToasts, [])
  // A new page closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change
  useEffect(() => setOpen(false), [path])
  useMenuDismissal(open, setOpen, menu, toggle)

  return (
    <header className="top-nav">
      <AppLink href="/" className="brand">
        <Heart className="icon brand__mark" aria-hidden="true" />
        {m.app_name()}
      </AppLink>
      {user ? (
        <>
          {flags.navigation && (
            <MenuToggle
              toggleRef={toggle}
              open={open}
              menuId={menuId}
              menuCount={menuCount}
              total={total}
              shown={shown}
              onToggle={() => setOpen(!open)}
            />
          )}
          <nav
            ref={menu}
            id={menuId}
            aria-label={m.nav_label()}
            className="top-nav__menu"
            data-open={open}
          >
            {flags.navigation && (
              <MemberLinks
                flags={flags}
                shown={shown}
                chatsCount={chatsCount}
                likesCount={likesCount}
              />
            )}
            <button type="button" className="top-nav__logout" onClick={() => void logOut(navigate)}>
              <LogOut className="icon" aria-hidden="true" />
              {m.nav_logout()}
            </button>
          </nav>
        </>
      ) : path.startsWith('/operator') ? null : (
        // The staff console has its own navigation and sign-out: a moderator
        // there is signed in as staff, not as a member, and is offered no
        // member log-in or sign-up.
        <GuestNav />
      )}
    </header>
  )
}

/** A visitor's way in: log in or sign up. */
function GuestNav() {
  return (
    <nav aria-label={m.nav_label()} className="top-nav__guest">
      <AppLink href="/login">
        <LogIn className="icon" aria-hidden="true" />
        {m.nav_login()}
      </AppLink>
      <AppLink href="/signup" className="button">
        <UserPlus className="icon" aria-hidden="true" />
        {m.nav_signup()}
      </AppLink>
    </nav>
  )
}

/** The member's pages, with the counts of unread chats and new likes. */
function MemberLinks({
  flags,
  shown,
  chatsCount,
  likesCount,
}: {
  flags: { chat: boolean; likes: boolean; notifications: boolean }
  shown: { unread: number; likes: number }
  chatsCount: string | undefined
  likesCount: string | undefined
}) {
  return (
    <>
      <AppLink href="/members" current>
        <Users className="icon" aria-hidden="true" />
        {m.nav_members()}
      </AppLink>
      {flags.chat && (
        <AppLink href="/chats" current aria-describedby={chatsCount}>
          <MessageCircle className="icon" aria-hidden="true" />
          {m.nav_chats()}
          <NavCount
            id={chatsCount}
            count={shown.unread}
            label={m.chats_unread({ count: shown.unread })}
          />
        </AppLink>
      )}
      {flags.likes && (
        <AppLink href="/likes" current aria-describedby={likesCount}>
          <Heart className="icon" aria-hidden="true" />
          {m.nav_likes()}
          <NavCount
            id={likesCount}
            count={shown.likes}
            label={m.likes_new_count({ count: shown.likes })}
          />
        </AppLink>
      )}
      {flags.notifications && (
        <AppLink href="/notifications" current>
          <Bell className="icon" aria-hidden="true" />
          {m.notifications_title()}
        </AppLink>
      )}
      <AppLink href="/profile" current>
        <UserRound className="icon" aria-hidden="true" />
        {m.nav_profile()}
      </AppLink>
    </>
  )
}

/** The small screen's menu button, with the count of everything new. */
function MenuToggle({
  toggleRef,
  open,
  menuId,
  menuCount,
  total,
  shown,
  onToggle,
}: {
  toggleRef: RefObject<HTMLButtonElement | null>
  open: boolean
  menuId: string
  menuCount: string | undefined
  total: number
  shown: { unread: number; likes: number }
  onToggle: () => void
}) {
  return (
    <button
      ref={toggleRef}
      type="button"
      className="top-nav__toggle"
      aria-expanded={open}
      aria-controls={menuId}
      aria-describedby={menuCount}
      onClick={onToggle}
    >
      {open ? (
        <X className="icon" aria-hidden="true" />
      ) : (
        <Menu className="icon" aria-hidden="true" />
      )}
      <span className="top-nav__toggle-text">{m.theme_menu()}</span>
      <NavCount
        id={menuCount}
        count={total}
        label={[
          shown.unread > 0 ? m.chats_unread({ count: shown.unread }) : '',
          shown.likes > 0 ? m.likes_new_count({ count: shown.likes }) : '',
        ]
          .filter(Boolean)
          .join(', ')}
      />
    </button>
  )
}
