// Live signals from the store (docs/live.md): whether the other member of a
// conversation is typing, the visitors of the member's profile, and the
// member's privacy choices.
import { useEffect, useState } from 'react'
import { syncWorker } from '../../sync/client.ts'
import { useKv } from './stored.ts'

/**
 * Whether the other member of `conversation` is typing: true until the time
 * the worker stored from the last signal (kv `typing`) passes.
 */
export function useTyping(conversation: number): boolean {
  const typing = useKv('typing')
  const until = typing?.[String(conversation)] ?? 0
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const left = until - Date.now()
    setNow(Date.now())
    if (left <= 0) return
    const timer = setTimeout(() => setNow(Date.now()), left)
    return () => clearTimeout(timer)
  }, [until])
  return until > now
}

/** The visitors of the member's profile, refreshed on open; offline the list seen last shows. */
export function useVisitors() {
  useEffect(() => {
    void syncWorker().syncVisitors()
  }, [])
  return useKv('visitors')
}

/** The member's privacy choices, fetched on open. */
export function usePrivacy() {
  useEffect(() => {
    void syncWorker().privacy()
  }, [])
  return useKv('privacy')
}
