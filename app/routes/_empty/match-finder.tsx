import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { m } from '../../../messages/paraglide/messages.js'
import { useSettings } from '../../data/useSettings.ts'
import { saveMatchAnswers } from '../../features/landers/match-answers.ts'
import '../../features/landers/landers.css'

/** Spec §9 age buckets (without "all": the finder asks for one). */
const AGES: [number, number][] = [
  [18, 25],
  [26, 35],
  [36, 45],
  [46, 55],
  [56, 65],
  [65, 100],
]

/**
 * Spec §2 /match-finder (public, empty layout): who, what age, where; the
 * answers go into sign-up (country) and the first search (/signup-matches).
 */
export const Route = createFileRoute('/_empty/match-finder')({ component: MatchFinder })

function MatchFinder() {
  const settings = useSettings()
  const navigate = useNavigate()
  const [gender, setGender] = useState<'male' | 'female'>('female')
  const [age, setAge] = useState(1)
  const [country, setCountry] = useState<string | null>(null)
  const here = country ?? settings?.geoip_country ?? settings?.company_country ?? 'NL'

  function submit(e: FormEvent) {
    e.preventDefault()
    const [min_age, max_age] = AGES[age] ?? [18, 100]
    saveMatchAnswers({ gender, min_age, max_age, country: here })
    void navigate({ to: '/signup' })
  }

  return (
    <main className="lander lander--finder">
      <p className="lander__brand">{m.app_name()}</p>
      <h1>{m.traffic_mf_title()}</h1>
      <p className="lander__lead">{m.traffic_mf_lead()}</p>
      <form className="form" onSubmit={submit}>
        <fieldset>
          <legend>{m.traffic_mf_who()}</legend>
          {(['female', 'male'] as const).map((g) => (
            <label key={g} className="radio">
              <input
                type="radio"
                name="gender"
                checked={gender === g}
                onChange={() => setGender(g)}
              />{' '}
              {g === 'female' ? m.traffic_mf_women() : m.traffic_mf_men()}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{m.traffic_mf_age()}</legend>
          {AGES.map(([lo, hi], i) => (
            <label key={lo} className="radio">
              <input type="radio" name="age" checked={age === i} onChange={() => setAge(i)} />{' '}
              {hi >= 100 ? `${lo}+` : `${lo}–${hi}`}
            </label>
          ))}
        </fieldset>
        <label className="field">
          {m.traffic_mf_where()}
          <select value={here} onChange={(e) => setCountry(e.target.value)}>
            {(settings?.countries ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button lander__button">
          {m.traffic_mf_submit()}
        </button>
      </form>
    </main>
  )
}
