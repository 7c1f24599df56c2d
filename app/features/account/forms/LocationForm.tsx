// Country, optional region, optional city (spec §2 step 3, /profile). With
// `geolocate` it asks the browser where the member is on arrival (spec §4)
// and pre-fills from GET /api/geocode.php, unless the member typed first.
import { type FormEvent, type RefObject, useEffect, useRef, useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { type SyncError, worker } from '../../../data/worker.ts'
import { formatCountry } from '../../../ui/format.ts'
import { errorText } from '../error-text.ts'
import { currentPosition, watchGeoPermission } from '../geolocation.ts'
import { CITY_MAX, canContinueLocation, validateCity } from '../validation.ts'
import { Field, FormAlert } from './Field.tsx'
import { failureText } from './failure-text.ts'

export interface Place {
  country: string | null
  countryregion: string | null
  city: string | null
}

type Option = { id: string; name: string }

/**
 * With `geolocate`, the browser's position on arrival (spec §4) and again when
 * the permission is granted later, geocoded into the place's setters unless
 * the member chose something first (`touched`). Returns where the lookup is.
 */
function useGeolocation(
  geolocate: boolean,
  touched: RefObject<boolean>,
  setCountry: (v: string) => void,
  setRegion: (v: string) => void,
  setCity: (v: string) => void,
) {
  const [geo, setGeo] = useState<'idle' | 'locating' | 'located'>('idle')
  useEffect(() => {
    if (!geolocate) return
    let live = true
    let busy = false
    let located = false
    const locate = async () => {
      if (busy || located) return
      busy = true
      setGeo('locating')
      const pos = await currentPosition()
      const res = pos ? await worker().geocode(pos.lat, pos.lon) : null
      busy = false
      if (!live) return
      // Spec §8: a failed geocode is logged and otherwise ignored.
      if (res && !res.ok) console.warn('geocode failed', res.error)
      if (!res?.ok || !res.value.country || touched.current) {
        setGeo('idle')
        return
      }
      located = true
      setCountry(res.value.country)
      setRegion(res.value.countryregion ?? '')
      setCity(res.value.city ?? '')
      setGeo('located')
    }
    void locate()
    // Spec §4: the permission is followed as it changes; granted later
    // (from the browser's own settings), the position is asked for again.
    let stop = () => {}
    void watchGeoPermission((state) => {
      if (state === 'granted') void locate()
    }).then((unwatch) => {
      if (live) stop = unwatch
      else unwatch()
    })
    return () => {
      live = false
      stop()
    }
  }, [geolocate, touched, setCountry, setRegion, setCity])
  return geo
}

export function LocationForm({
  idPrefix,
  countries,
  regionData,
  initial,
  geolocate,
  submitLabel,
  onSubmit,
}: {
  idPrefix: string
  countries: Option[]
  regionData: Record<string, Option[]>
  initial: Place
  geolocate: boolean
  submitLabel: string
  onSubmit: (place: Place) => Promise<SyncError | null>
}) {
  const [country, setCountry] = useState(initial.country ?? '')
  const [region, setRegion] = useState(initial.countryregion ?? '')
  const [city, setCity] = useState(initial.city ?? '')
  const [busy, setBusy] = useState(false)
  const [cityError, setCityError] = useState<string | null>(null)
  const [alert, setAlert] = useState<string | null>(null)
  /** Once the member chose something, a late geocode answer must not overwrite it. */
  const touched = useRef(false)
  const geo = useGeolocation(geolocate, touched, setCountry, setRegion, setCity)
  /** The member's own choice, which a late geocode answer no longer overwrites. */
  const choose = (change: { country?: string; region?: string; city?: string }) => {
    touched.current = true
    if (change.country !== undefined) setCountry(change.country)
    if (change.region !== undefined) setRegion(change.region)
    if (change.city !== undefined) setCity(change.city)
  }

  const regions = regionData[country] ?? []

  async function submit(e: FormEvent) {
    e.preventDefault()
    const cityProblem = validateCity(city)
    setCityError(cityProblem ? errorText(cityProblem) : null)
    if (cityProblem || !canContinueLocation(country)) return
    setBusy(true)
    setAlert(null)
    const error = await onSubmit({
      country,
      countryregion: region === '' ? null : region,
      city: city.trim() === '' ? null : city.trim(),
    })
    setBusy(false)
    if (error) setAlert(failureText(error))
  }

  const id = (name: string) => `${idPrefix}-${name}`
  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy} noValidate>
      {geo !== 'idle' && (
        <p className="form__status" role="status">
          {geo === 'locating' ? m.signup_locating() : m.signup_located()}
        </p>
      )}
      <PlaceFields
        id={id}
        countries={countries}
        regions={regions}
        place={{ country, region, city }}
        cityError={cityError}
        choose={choose}
      />
      <FormAlert text={alert} />
      {!canContinueLocation(country) && <p className="field__hint">{m.signup_country_needed()}</p>}
      <button type="submit" className="button" disabled={busy || !canContinueLocation(country)}>
        {busy ? m.signup_saving() : submitLabel}
      </button>
    </form>
  )
}

/** Country, region (of the country's, if it has any) and city. */
function PlaceFields({
  id,
  countries,
  regions,
  place: { country, region, city },
  cityError,
  choose,
}: {
  id: (name: string) => string
  countries: Option[]
  regions: Option[]
  place: { country: string; region: string; city: string }
  cityError: string | null
  choose: (change: { country?: string; region?: string; city?: string }) => void
}) {
  return (
    <>
      <Field id={id('country')} label={m.signup_country()}>
        {(p) => (
          <select
            {...p}
            required
            value={country}
            onChange={(e) => choose({ country: e.target.value, region: '' })}
          >
            <option value="">{m.signup_country_choose()}</option>
            {countries.map((c) => (
              <option key={c.id} value={c.id}>
                {formatCountry(c.id, c.name)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={id('region')} label={m.signup_region()}>
        {(p) => (
          <select
            {...p}
            value={region}
            disabled={regions.length === 0}
            onChange={(e) => choose({ region: e.target.value })}
          >
            <option value="">{m.signup_region_none()}</option>
            {regions.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={id('city')} label={m.signup_city()} error={cityError}>
        {(p) => (
          <input
            {...p}
            value={city}
            maxLength={CITY_MAX}
            autoComplete="address-level2"
            onChange={(e) => choose({ city: e.target.value })}
          />
        )}
      </Field>
    </>
  )
}
