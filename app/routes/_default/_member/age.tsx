// /age: the member proves to be 18 or older with the EU age verification
// app (api/age/). On a computer the page shows the request as a QR code to
// scan with the phone; on a phone a link opens the app on the same device.
// It waits for the app's answer, then goes on to where the member was going
// (`next`, a path of this site). docs/age-assurance.md.
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import { encode } from 'uqr'
import type { AgeStartResponse } from '../../../../api/contract/index.ts'
import { samePath } from '../../../../api/contract/rules/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { worker } from '../../../data/worker.ts'

export const Route = createFileRoute('/_default/_member/age')({ component: AgePage })

/**
 * Where to go after the check: `?next=`, a path of this site only (an open
 * redirect would hand phishers a trusted link). Read in the page, not by the
 * route, so nothing of it loads with the members area's first page.
 */
const nextOf = () => samePath(new URLSearchParams(window.location.search).get('next')) ?? undefined

/** How often the page asks whether the app has answered. */
const POLL_MS = 2000

type State =
  | { kind: 'loading' }
  | { kind: 'intro' }
  | { kind: 'waiting'; started: AgeStartResponse }
  | { kind: 'passed' }
  /** Passed before this visit: nothing goes on by itself. */
  | { kind: 'assured' }
  | { kind: 'refused' }
  | { kind: 'expired' }
  | { kind: 'unavailable' }

/** While a request waits, its state is asked for every POLL_MS until it ends. */
function usePolledOutcome(
  waitingFor: Extract<State, { kind: 'waiting' }>['started']['request'] | null,
  setState: (state: State) => void,
) {
  useEffect(() => {
    if (waitingFor === null) return
    let live = true
    const timer = setInterval(async () => {
      const res = await worker().ageRequest(waitingFor)
      if (!live || !res.ok) return
      const s = res.value.state
      if (s === 'passed' || s === 'refused' || s === 'expired') setState({ kind: s })
    }, POLL_MS)
    return () => {
      live = false
      clearInterval(timer)
    }
  }, [waitingFor, setState])
}

function AgePage() {
  const [next] = useState(nextOf)
  const navigate = useNavigate()
  const [state, setState] = useState<State>({ kind: 'loading' })
  const goOn = () => void navigate({ href: next ?? '/members' })

  useEffect(() => {
    let live = true
    void worker()
      .ageStatus()
      .then((res) => {
        if (!live) return
        setState(res.ok && res.value.assured ? { kind: 'assured' } : { kind: 'intro' })
      })
    return () => {
      live = false
    }
  }, [])

  const waitingFor = state.kind === 'waiting' ? state.started.request : null
  usePolledOutcome(waitingFor, setState)

  // A passed check goes on by itself to where the member was going.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the check passes
  useEffect(() => {
    if (state.kind === 'passed' && next) goOn()
  }, [state.kind])

  async function start() {
    setState({ kind: 'loading' })
    const res = await worker().ageStart()
    setState(res.ok ? { kind: 'waiting', started: res.value } : { kind: 'unavailable' })
  }

  return (
    <main className="page page--narrow age-page">
      <h1>{m.age_title()}</h1>
      {state.kind === 'loading' && <p role="status">{m.age_waiting()}</p>}
      {state.kind === 'intro' && (
        <>
          <p>{m.age_intro()}</p>
          <button type="button" className="button" onClick={() => void start()}>
            {m.age_start()}
          </button>
        </>
      )}
      {state.kind === 'waiting' && (
        <Request link={state.started.link} testWallet={testWalletHref(state.started, next)} />
      )}
      {(state.kind === 'passed' || state.kind === 'assured') && (
        <>
          <p role="status">{m.age_passed()}</p>
          <button type="button" className="button" onClick={goOn}>
            {m.age_continue()}
          </button>
        </>
      )}
      {(state.kind === 'refused' || state.kind === 'expired' || state.kind === 'unavailable') && (
        <>
          <p role="alert">
            {state.kind === 'refused'
              ? m.age_refused()
              : state.kind === 'expired'
                ? m.age_expired()
                : m.age_unavailable()}
          </p>
          <button type="button" className="button" onClick={() => void start()}>
            {m.age_try_again()}
          </button>
        </>
      )}
      <p className="age-page__note">{m.age_privacy()}</p>
    </main>
  )
}

/**
 * The built-in test wallet's page for the request, with where to go after
 * it; only on a demo start or with AGE_TEST_WALLET=on (the server sends null otherwise).
 */
const testWalletHref = (started: AgeStartResponse, next: string | undefined) =>
  started.test_wallet === null
    ? null
    : `${started.test_wallet}${next ? `&next=${encodeURIComponent(next)}` : ''}`

/**
 * The request: a QR code to scan on a computer, a link to the app on a
 * phone; on a demo, also the test wallet, marked as no real proof.
 */
function Request({ link, testWallet }: { link: string; testWallet: string | null }) {
  const phone = useMemo(
    () => typeof window !== 'undefined' && window.matchMedia('(pointer: coarse)').matches,
    [],
  )
  return (
    <div className="age-page__request">
      {phone ? (
        <a className="button" href={link}>
          {m.age_open_app()}
        </a>
      ) : (
        <>
          <p>{m.age_scan()}</p>
          <QrCode text={link} label={m.age_qr_label()} />
          <p>
            <a href={link}>{m.age_open_here()}</a>
          </p>
        </>
      )}
      {testWallet !== null && (
        <div className="age-page__test-wallet">
          <p>{m.age_test_wallet_note()}</p>
          <a className="button button--secondary" href={testWallet}>
            {m.age_test_wallet_open()}
          </a>
        </div>
      )}
      <p role="status" aria-live="polite">
        {m.age_waiting()}
      </p>
    </div>
  )
}

/** A QR code as one SVG path (uqr: a small, dependency-free encoder), dark on white whatever the theme. */
function QrCode({ text, label }: { text: string; label: string }) {
  const { path, size } = useMemo(() => {
    const qr = encode(text, { ecc: 'L', border: 4 })
    let d = ''
    qr.data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`
      })
    })
    return { path: d, size: qr.size }
  }, [text])
  return (
    <svg
      className="age-page__qr"
      style={{ display: 'block', width: 'min(100%, 18rem)', height: 'auto' }}
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
