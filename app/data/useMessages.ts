// A conversation's messages and the credits balance, from the store. Opening a
// chat pulls what is new, marks it read (spec §4: unread 0, here at once and
// on the server) and refreshes the balance the composer shows.
import { useEffect, useRef, useState } from 'react'
import { syncWorker } from '../../sync/client.ts'
import { useKv, useStored } from './stored.ts'

export type { MessageRow } from '../../sync/store/store.ts'

/**
 * The conversation's stored messages, and, once the opening's pull of what
 * is new has answered, the id of the newest message the store then held
 * (0: none). The chat's "New" divider waits until `rows` hold that one:
 * the pull's answer and the store's new rows reach the page separately,
 * and a divider placed on the rows from before the pull sat too high (on
 * a loaded machine the rows came a frame after the answer).
 */
export function useMessages(conversation: number) {
  const [pulled, setPulled] = useState<{ conversation: number; newest: number } | null>(null)
  useEffect(() => {
    const w = syncWorker()
    void (async () => {
      setPulled({ conversation, newest: await w.pullMessages(conversation) })
      await w.markChatRead(conversation)
    })()
    void w.syncCredits()
  }, [conversation])
  const rows = useStored('messages', [conversation])
  useReadWhileOpen(conversation, rows?.length)
  return { rows, pulledUpTo: pulled?.conversation === conversation ? pulled.newest : undefined }
}

/**
 * A message arriving while the chat is open and in sight is read: the chat
 * marks it (the sender's "Seen", docs/live.md). The first answer of the
 * store is the opening's own read above.
 */
function useReadWhileOpen(conversation: number, count: number | undefined) {
  const previous = useRef<number | undefined>(undefined)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the list grows
  useEffect(() => {
    const before = previous.current
    previous.current = count
    if (before === undefined || count === undefined || count <= before) return
    if (document.visibilityState === 'visible') void syncWorker().markChatRead(conversation)
  }, [count])
}

/** The balance and the price of a message (kv `credits`), refreshed by useMessages. */
export function useCredits() {
  return useKv('credits')
}
