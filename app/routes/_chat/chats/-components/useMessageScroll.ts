import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { MessageRow } from '../../../../data/useMessages.ts'
import { worker } from '../../../../data/worker.ts'

/** Closer than this (px) to the end of the list, the member is at the bottom. */
const AT_BOTTOM_PX = 40

const endOf = (el: HTMLElement) => el.scrollHeight - el.clientHeight
const atBottom = (el: HTMLElement) => endOf(el) - el.scrollTop < AT_BOTTOM_PX

/**
 * Where the opening's "New" divider goes, by message key: above the first
 * of the other member's last `unread` messages; null when nothing was
 * unread; undefined while it cannot be told yet: before the opening's pull
 * answered (`pulledUpTo` undefined) and until `rows` hold the newest message
 * the store had then (`pulledUpTo`, its id; 0: none). Placed on the rows
 * from before the pull, it sat too high, above messages read long ago.
 */
export function dividerKey(
  rows: MessageRow[] | undefined,
  me: number | undefined,
  unread: number | undefined,
  pulledUpTo: number | undefined,
): string | null | undefined {
  if (pulledUpTo === undefined || !rows || me === undefined || unread === undefined) return
  if (pulledUpTo > 0 && !rows.some((r) => r.id !== null && r.id >= pulledUpTo)) return
  const theirs = rows.filter((r) => r.from !== me && r.status === 'sent')
  return unread > 0 && theirs.length > 0 ? theirs[Math.max(0, theirs.length - unread)]!.key : null
}

/**
 * The first unread message of the opening, by key (dividerKey), kept once
 * told while the chat stays open (a message read since does not move it).
 */
export function useNewDivider(
  rows: MessageRow[] | undefined,
  me: number | undefined,
  unread: number | undefined,
  pulledUpTo: number | undefined,
): string | undefined {
  const [key, setKey] = useState<string | null | undefined>(undefined)
  useEffect(() => {
    if (key !== undefined) return
    const told = dividerKey(rows, me, unread, pulledUpTo)
    if (told !== undefined) setKey(told)
  }, [key, pulledUpTo, rows, me, unread])
  return key ?? undefined
}

/**
 * The message list's scrolling (docs/live.md, "The open chat"):
 * - opening, the list shows the first unread message (the "New" divider at
 *   the top) or, with none, the newest; it keeps that place while messages
 *   and their heights come in, until the member scrolls or sends;
 * - at the bottom, the list stays pinned there: new messages, the member's
 *   own sends, and anything in it growing (a picture loading, a message laid
 *   out late: content-visibility) keep the newest in view;
 * - scrolled up, a message arriving shows the "new messages" pill instead of
 *   moving the reader; the pill scrolls down;
 * - loading older messages above keeps the reader's place; scrolling near
 *   the top loads them.
 */
export function useMessageScroll(id: number, count: number, divider: string | undefined) {
  const [older, setOlder] = useState<'idle' | 'loading' | 'done'>('idle')
  const [pill, setPill] = useState(false)
  const list = useRef<HTMLOListElement>(null)
  const stick = useRef(true)
  /** Still the opening's place: the member has not scrolled nor sent yet. */
  const opening = useRef(true)
  const previousHeight = useRef(0)
  const previousCount = useRef(0)

  /** Where the list belongs now, with what it holds: the opening's place or the bottom. */
  const place = () => {
    const el = list.current
    if (!el) return
    if (opening.current) {
      const mark = el.querySelector<HTMLElement>('.chat-messages__new')
      el.scrollTop = mark ? Math.min(endOf(el), mark.offsetTop) : el.scrollHeight
    } else if (stick.current) el.scrollTop = el.scrollHeight
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the list grows or the divider comes
  useLayoutEffect(() => {
    const el = list.current
    if (!el) return
    const grew = previousCount.current > 0 && count > previousCount.current
    previousCount.current = count
    if (older === 'loading') el.scrollTop += el.scrollHeight - previousHeight.current
    else {
      if (opening.current || stick.current) place()
      if (grew && !atBottom(el)) setPill(true)
    }
    previousHeight.current = el.scrollHeight
  }, [count, divider])

  // Heights that change after the render (pictures, messages laid out late,
  // the list itself resized) keep the list where it belongs.
  // biome-ignore lint/correctness/useExhaustiveDependencies: observes the list's items anew as it grows
  useEffect(() => {
    const el = list.current
    if (!el || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => {
      if (opening.current || stick.current) place()
    })
    observer.observe(el)
    for (const item of el.children) observer.observe(item)
    return () => observer.disconnect()
  }, [count, divider])

  async function loadOlder() {
    if (older !== 'idle') return
    previousHeight.current = list.current?.scrollHeight ?? 0
    setOlder('loading')
    const res = await worker().loadOlderMessages(id)
    setOlder(res.ok && !res.value.more ? 'done' : 'idle')
  }

  function onScroll() {
    const el = list.current
    if (!el) return
    if (!opening.current) stick.current = atBottom(el)
    if (atBottom(el)) setPill(false)
    if (el.scrollTop < 80 && !opening.current) void loadOlder()
  }

  /** The member moved the list (wheel, touch, keys, the scrollbar): the opening's place is theirs now. */
  const onMemberScroll = () => {
    opening.current = false
    if (list.current) stick.current = atBottom(list.current)
  }

  /** A message sent, or the pill pressed: the list goes down to the newest and follows it. */
  const toEnd = () => {
    opening.current = false
    stick.current = true
    setPill(false)
    const el = list.current
    if (el) el.scrollTop = el.scrollHeight
  }
  return { older, list, pill, loadOlder, onScroll, onMemberScroll, toEnd }
}
