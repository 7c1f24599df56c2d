// Buying credits, from the store: packages, the active discount, the credits
// history and a transaction's state. Each hook asks the worker to refresh
// what it shows; the page renders the stored copy (offline: the last one).
import { useEffect, useState } from 'react'
import { TRANSACTION_POLL_MS } from '../../api/contract/rules/payments.ts'
import { syncWorker } from '../../sync/client.ts'
import { useKv } from './stored.ts'

export type {
  CreditHistoryResponse,
  Discount,
  PackagesResponse,
  Transaction,
} from '../../api/contract/index.ts'

/** Packages of the member's country, or for a guest of `country` (else the geo-IP one). */
export function usePackages(country?: string) {
  useEffect(() => {
    void syncWorker().loadPackages(country)
  }, [country])
  const stored = useKv('packages')
  // A guest's choice of country shows only its own prices, never a stale other.
  return country && stored && stored.country !== country ? undefined : stored
}

export function useDiscount() {
  useEffect(() => {
    void syncWorker().loadDiscount()
  }, [])
  return useKv('discount')?.discount
}

/** The history; asked again whenever the balance changes (a purchase, a send, a refund). */
export function useCreditHistory() {
  const credits = useKv('credits')
  useEffect(() => {
    void syncWorker().syncCredits()
  }, [])
  const balance = credits?.credits
  useEffect(() => {
    // The balance moved (a purchase, a send, a refund): so did the history.
    if (balance !== undefined) void syncWorker().loadCreditHistory()
  }, [balance])
  return {
    history: useKv('creditHistory'),
    balance,
  }
}

/**
 * A transaction's state, asked again every 2 s until it is final; `null`
 * when there is no such transaction.
 */
export function useTransaction(id: string) {
  const [missing, setMissing] = useState(false)
  useEffect(() => {
    setMissing(false)
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      const res = await syncWorker().loadTransaction(id)
      if (!live) return
      if (res.ok && res.value.status !== 'pending') return
      // No such order, or an id that cannot be one (the API's 400): final, said at once.
      if (!res.ok && (res.error.code === 'not_found' || res.error.status === 400)) {
        setMissing(true)
        return
      }
      timer = setTimeout(() => void poll(), TRANSACTION_POLL_MS)
    }
    void poll()
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [id])
  const stored = useKv('transaction')
  if (missing) return null
  return stored?.id === id ? stored : undefined
}
