// The chat list and one chat, from the store; opening either refreshes the
// list (the worker also polls it, spec §9), so offline the last copy shows.
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect } from 'react'
import { syncWorker } from '../../sync/client.ts'
import { localDb } from '../../sync/store/store.ts'

export function useChats() {
  useEffect(() => {
    void syncWorker().syncChats()
  }, [])
  return useLiveQuery(() => localDb().chats.orderBy('order').toArray(), [])
}

/** One conversation of the list; a conversation just started is fetched with the list. */
export function useChat(id: number) {
  useEffect(() => {
    void syncWorker().syncChats()
  }, [])
  return useLiveQuery(() => localDb().chats.get(id), [id])
}
