import { type FormEvent, useState } from 'react'
import { m } from '../../../../../../messages/paraglide/messages.js'
import type { SearchPageRow } from '../../../../../data/worker.ts'
import { AppLink } from '../../../../../ui/AppLink.tsx'
import { formatCountry } from '../../../../../ui/format.ts'
import { AGE_BUCKETS, type AgeBucket, bucketOf } from './age-buckets.ts'

export interface FilterValues {
  gender: 'male' | 'female'
  country: string
  region: string
  age: AgeBucket
  /** Members online now first (sort=online). */
  onlineFirst: boolean
  verified: boolean
}

export const AGE_LABEL: Record<AgeBucket, () => string> = {
  all: m.age_all,
  upto25: m.age_upto25,
  '26_35': m.age_26_35,
  '36_45': m.age_36_45,
  '46_55': m.age_46_55,
  '56_65': m.age_56_65,
  '65plus': m.age_65plus,
}

/** The filters a search page applied, as the form's values (the saved search's when none were sent). */
export function valuesOf(page: SearchPageRow, onlineFirst: boolean): FilterValues {
  const f = page.filters
  return {
    gender: f.gender === 'male' ? 'male' : 'female',
    country: f.country ?? '',
    region: f.countryregion ?? '',
    age: bucketOf(f.min_age, f.max_age),
    onlineFirst,
    verified: f.verified,
  }
}

export function Filters({
  page,
  onlineFirst,
  regionData,
  onSearch,
}: {
  page: SearchPageRow
  onlineFirst: boolean
  /** Every country's regions (settings.region_data), for a country other than the searched one. */
  regionData: Record<string, { id: string; name: string }[]> | undefined
  onSearch: (v: FilterValues) => void
}) {
  const f = page.filters
  const [country, setCountry] = useState(f.country ?? '')
  // The searched country's regions came with the page; another country's
  // come from the settings, so the list is filled as soon as it is chosen.
  const regions =
    country === f.country ? page.filterOptions.countryregion : (regionData?.[country] ?? [])

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    onSearch({
      gender: data.get('gender') === 'male' ? 'male' : 'female',
      country: String(data.get('country') ?? ''),
      region: String(data.get('region') ?? ''),
      age: String(data.get('age')) as AgeBucket,
      onlineFirst: data.has('online'),
      verified: data.get('verified') === 'on',
    })
  }

  return (
    <form className="filters" aria-label={m.members_filters()} onSubmit={submit}>
      <label>
        {m.filter_gender()}
        <select name="gender" defaultValue={f.gender ?? 'female'}>
          <option value="female">{m.gender_female()}</option>
          <option value="male">{m.gender_male()}</option>
        </select>
      </label>
      <label>
        {m.filter_country()}
        <select name="country" value={country} onChange={(e) => setCountry(e.target.value)}>
          {page.filterOptions.country.map((c) => (
            <option key={c.id} value={c.id}>
              {formatCountry(c.id, c.name)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {m.filter_region()}
        <select name="region" key={country} defaultValue={f.countryregion ?? ''}>
          <option value="">{m.filter_region_any()}</option>
          {regions.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
      </label>
      <AgeChoice defaultValue={bucketOf(f.min_age, f.max_age)} />
      <label className="choice">
        <input type="checkbox" name="online" defaultChecked={onlineFirst} />
        {m.filter_online_first()}
      </label>
      <label className="choice">
        <input type="checkbox" name="verified" defaultChecked={f.verified} />
        {m.filter_verified()}
      </label>
      <button type="submit" className="button">
        {m.filter_search()}
      </button>
      {/* The orders' main parameters (DSA Art. 27). */}
      <AppLink href="/pages/ranking">{m.filter_ranking_link()}</AppLink>
    </form>
  )
}

/** The age bracket searched. */
function AgeChoice({ defaultValue }: { defaultValue: AgeBucket }) {
  return (
    <label>
      {m.filter_age()}
      <select name="age" defaultValue={defaultValue}>
        {(Object.keys(AGE_BUCKETS) as AgeBucket[]).map((b) => (
          <option key={b} value={b}>
            {AGE_LABEL[b]()}
          </option>
        ))}
      </select>
    </label>
  )
}
