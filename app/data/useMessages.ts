// A conversation's messages and the credits balance, from the store. Opening a
// chat pulls what is new, marks it read (spec §4: unread 0, here at once and
// on the server) and refreshes the balance the composer shows.
import { useEffect } from 'react'
import { syncWorker } from '../../sync/client.ts'
import { useKv, useStored } from './stored.ts'

export type { MessageRow } from '../../sync/store/store.ts'

export function useMessages(conversation: number) {
  useEffect(() => {
    const w = syncWorker()
    void (async () => {
      await w.pullMessages(conversation)
      await w.markChatRead(conversation)
    })()
    void w.syncCredits()
  }, [conversation])
  return useStored('messages', [conversation])
}

/** The balance and the price of a message (kv `credits`), refreshed by useMessages. */
export function useCredits() {
  return useKv('credits')
}
