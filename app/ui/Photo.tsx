import { UserRound } from 'lucide-react'
import { type ImgHTMLAttributes, useEffect, useState } from 'react'
import { useOnline } from './useOnline.ts'

/**
 * A member's picture that never shows the browser's broken-image icon: a
 * picture that cannot load (offline and never seen on this device, or gone
 * from the server) gives way to a quiet placeholder of the same box, named
 * like the picture for assistive tech. Back online, it is tried again.
 */
export function Photo({ className = '', alt = '', ...img }: ImgHTMLAttributes<HTMLImageElement>) {
  const [failed, setFailed] = useState<string | undefined>(undefined)
  const online = useOnline()
  useEffect(() => {
    if (online) setFailed(undefined)
  }, [online])
  if (failed !== undefined && failed === img.src)
    return (
      <span
        className={`${className} photo--missing`}
        {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
      >
        <UserRound className="icon" aria-hidden="true" />
      </span>
    )
  return <img className={className} alt={alt} {...img} onError={() => setFailed(img.src)} />
}
