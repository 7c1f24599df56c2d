// The numbers a member sees in the header, the mobile menu and the document
// title: unread messages and new likes, from the counts the sync worker
// stores with the install badge (sync/session/badge.ts), so all of them and
// the app's badge agree.
import { useEffect, useId } from 'react'
import { useKv } from '../data/stored.ts'

export interface NavCounts {
  unread: number
  likes: number
  total: number
}

/** The stored counts; zero until the worker has counted. */
export function useNavCounts(): NavCounts {
  const counts = useKv('counts')
  const unread = counts?.unread ?? 0
  const likes = counts?.likes ?? 0
  return { unread, likes, total: unread + likes }
}

const TITLE_COUNT = /^\(\d+\) /

/** Puts the total in front of the document's title, "(3) Amora", while there is one. */
export function useTitleCount(total: number): void {
  useEffect(() => {
    const base = document.title.replace(TITLE_COUNT, '')
    document.title = total > 0 ? `(${total}) ${base}` : base
    return () => {
      document.title = document.title.replace(TITLE_COUNT, '')
    }
  }, [total])
}

/**
 * A number on a link or button (aria-hidden), described for a screen reader
 * by `label` ("3 unread") through aria-describedby, so the element's name
 * stays its own ("Chats"). `describedBy` is the id the element must carry
 * while the count shows; nothing shows at zero.
 */
export function useCountLabel(count: number): string | undefined {
  const id = useId()
  return count > 0 ? id : undefined
}

export function NavCount({ id, count, label }: { id?: string; count: number; label: string }) {
  if (count <= 0 || id === undefined) return null
  return (
    <>
      <span className="nav-count" aria-hidden="true" data-count={count}>
        {count > 99 ? '99+' : count}
      </span>
      <span id={id} hidden>
        {label}
      </span>
    </>
  )
}
