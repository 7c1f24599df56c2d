// Loads something through the sync worker, again whenever `key` changes;
// answers undefined until the first answer (a reload keeps showing the
// previous one). Spec §8: failures of reference data (regions, profile
// fields, geocode) are logged and otherwise ignored, so an error answers null.
import { useEffect, useRef, useState } from 'react'
import type { Result } from '../../../data/worker.ts'

export function useWorker<T>(
  load: () => Promise<Result<T>>,
  key: string | number = 0,
): T | null | undefined {
  const [value, setValue] = useState<T | null | undefined>(undefined)
  const loader = useRef(load)
  loader.current = load
  useEffect(() => {
    let live = true
    void loader.current().then((res) => {
      if (!live) return
      if (!res.ok) console.warn('worker call failed', key, res.error)
      setValue(res.ok ? res.value : null)
    })
    return () => {
      live = false
    }
  }, [key])
  return value
}
