// The chat list and one chat, from the store; opening either refreshes the
// list (the worker also polls it, spec §9), so offline the last copy shows.
import { useEffect } from 'react'
import { syncWorker } from '../../sync/client.ts'
import { useStored } from './stored.ts'

export function useChats() {
  useEffect(() => {
    void syncWorker().syncChats()
  }, [])
  return useStored('chats', [])
}

/** One conversation of the list; a conversation just started is fetched with the list. */
export function useChat(id: number) {
  useEffect(() => {
    void syncWorker().syncChats()
  }, [])
  return useStored('chat', [id])
}
