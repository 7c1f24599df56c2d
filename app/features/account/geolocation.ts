// Spec §4 "reaching step 3 requests geolocation"; §9 geolocation cache max
// age 1 hour (a position up to an hour old is good enough for a city).
export const GEO_MAX_AGE_MS = 3_600_000
/** Not in the spec: how long the sign-up waits for a fix before the member types it in. */
export const GEO_TIMEOUT_MS = 15_000

export type GeoPermission = 'unsupported' | 'unknown' | 'granted' | 'denied' | 'prompt'

/** Spec §4 geolocation permission state, updated on change. */
export async function watchGeoPermission(
  onChange: (state: GeoPermission) => void,
): Promise<() => void> {
  if (!('geolocation' in navigator)) {
    onChange('unsupported')
    return () => {}
  }
  try {
    const status = await navigator.permissions.query({ name: 'geolocation' })
    const update = () => onChange(status.state)
    update()
    status.addEventListener('change', update)
    return () => status.removeEventListener('change', update)
  } catch {
    onChange('unknown')
    return () => {}
  }
}

export function currentPosition(): Promise<{ lat: number; lon: number } | null> {
  if (!('geolocation' in navigator)) return Promise.resolve(null)
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lon: p.coords.longitude }),
      () => resolve(null),
      { maximumAge: GEO_MAX_AGE_MS, timeout: GEO_TIMEOUT_MS },
    )
  })
}
