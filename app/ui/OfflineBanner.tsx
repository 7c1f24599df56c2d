import { m } from '../../messages/paraglide/messages.js'
import { useOnline } from './useOnline.ts'

export function OfflineBanner() {
  const online = useOnline()
  if (online) return null
  return (
    <p className="offline-banner" role="status">
      {m.offline_banner()}
    </p>
  )
}
