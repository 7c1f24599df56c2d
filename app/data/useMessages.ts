// A conversation's messages and the credits balance, from the store. Opening a
// chat pulls what is new, marks it read (spec §4: unread 0, here at once and
// on the server) and refreshes the balance the composer shows.
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect } from 'react'
import { syncWorker } from '../../sync/client.ts'
import { kvGet } from '../../sync/store/kv.ts'
import { localDb } from '../../sync/store/store.ts'

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
  return useLiveQuery(
    () =>
      localDb()
        .messages.where('[conversation+order]')
        .between([conversation, 0], [conversation, Number.MAX_SAFE_INTEGER])
        .toArray(),
    [conversation],
  )
}

/** The balance and the price of a message (kv `credits`), refreshed by useMessages. */
export function useCredits() {
  return useLiveQuery(() => kvGet(localDb(), 'credits'), [])
}
