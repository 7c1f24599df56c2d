import { describe, expect, it } from 'vitest'
import {
  ACTIVATION_TICK_MS,
  ACTIVATION_TICKS,
  activationTextIndex,
  effectsOnEnter,
  initialSignup,
  PROGRESS_DIVISOR,
  type PushOffer,
  progressPercent,
  type SignupEffect,
  type SignupEvent,
  type SignupState,
  STEP,
  STEP_COUNT,
  type Step,
  showInviteOnly,
  signupReducer,
  signupsEnabled,
} from './signup-steps.ts'

const at = (step: Step, showPush = true, tick = 0): SignupState => ({ step, showPush, tick })
const types = (effects: SignupEffect[]) => effects.map((e) => e.type)

describe('constants (spec §9)', () => {
  it('8 steps, progress divisor 6', () => {
    expect(STEP_COUNT).toBe(8)
    expect(PROGRESS_DIVISOR).toBe(6)
    expect(ACTIVATION_TICKS).toBe(20)
    expect(ACTIVATION_TICK_MS).toBe(900) // spec §9: activation progress polled every 900 ms
  })

  it.each([
    [0, 0],
    [1, 17],
    [3, 50],
    [6, 100],
    [7, 100],
  ])('progress at step %i is %i%%', (step, pct) => expect(progressPercent(step)).toBe(pct))
})

describe('after account creation (spec §4 push branches)', () => {
  it.each<[PushOffer, Step, string[]]>([
    // Already subscribed: the subscription is added and the flow jumps 2 steps.
    ['subscribed', STEP.photo, ['add_push_subscription', 'save_step']],
    ['denied', STEP.photo, ['save_step']],
    ['undecided', STEP.push, ['save_step']],
    ['unsupported', STEP.photo, ['save_step']],
    ['unknown', STEP.photo, ['save_step']],
  ])('push %s → step %i', (push, step, effects) => {
    const t = signupReducer(initialSignup(true), { type: 'account_created', push })
    expect(t.state.step).toBe(step)
    expect(types(t.effects)).toEqual(effects)
  })

  it('undecided but push not on display: the push step is skipped', () => {
    const t = signupReducer(initialSignup(false), { type: 'account_created', push: 'undecided' })
    expect(t.state.step).toBe(STEP.photo)
  })

  it('only step 0 creates an account', () => {
    const t = signupReducer(at(STEP.location), { type: 'account_created', push: 'undecided' })
    expect(t.state.step).toBe(STEP.location)
    expect(t.effects).toEqual([])
  })
})

describe('moving forward 0 → 7', () => {
  it.each<[Step, Step, string[]]>([
    [STEP.push, STEP.photo, ['save_step']],
    [STEP.photo, STEP.location, ['save_step', 'request_geolocation']],
    [STEP.location, STEP.about, ['save_step']],
    [STEP.about, STEP.notes, ['save_step']],
    [STEP.notes, STEP.progress, ['save_step', 'poll_activation']],
  ])('next from %i → %i with %j', (from, to, effects) => {
    const t = signupReducer(at(from), { type: 'next' })
    expect(t.state.step).toBe(to)
    expect(types(t.effects)).toEqual(effects)
  })

  it.each([STEP.account, STEP.progress, STEP.done])(
    'step %i does not end by "next" (account creation / activation end it)',
    (step) => {
      const t = signupReducer(at(step), { type: 'next' })
      expect(t.state.step).toBe(step)
      expect(t.effects).toEqual([])
    },
  )

  it('steps only move forward through a whole flow', () => {
    let state = initialSignup(true)
    const seen: number[] = [state.step]
    const events: SignupEvent[] = [
      { type: 'account_created', push: 'undecided' },
      { type: 'next' },
      { type: 'next' },
      { type: 'next' },
      { type: 'next' },
      { type: 'next' },
      { type: 'activation_tick', delivered: true },
    ]
    for (const e of events) {
      state = signupReducer(state, e).state
      seen.push(state.step)
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  })
})

describe('push display', () => {
  it('becoming false on the push step skips to the photo', () => {
    const t = signupReducer(at(STEP.push), { type: 'push_display', show: false })
    expect(t.state).toMatchObject({ step: STEP.photo, showPush: false })
    expect(types(t.effects)).toEqual(['save_step'])
  })

  it.each([STEP.account, STEP.photo, STEP.location])('elsewhere (step %i) only records it', (s) => {
    const t = signupReducer(at(s), { type: 'push_display', show: false })
    expect(t.state).toEqual(at(s, false))
    expect(t.effects).toEqual([])
  })

  it('becoming true keeps the step', () => {
    const t = signupReducer(at(STEP.push, false), { type: 'push_display', show: true })
    expect(t.state).toEqual(at(STEP.push, true))
  })
})

describe('a signed-in member resuming (spec §4)', () => {
  const none = {}
  it.each<[string, boolean, boolean, boolean, object, Step]>([
    ['push offered', true, false, false, none, STEP.push],
    ['no push option', false, false, false, none, STEP.photo],
    ['main image', true, true, false, none, STEP.location],
    ['main image, no push', false, true, false, none, STEP.location],
    ['no auto-skip ignores the profile', true, true, false, { city: 'Utrecht' }, STEP.location],
    ['auto-skip: region set', true, true, true, { countryregion: 'NL-UT' }, STEP.about],
    ['auto-skip: city set', true, false, true, { city: 'Utrecht' }, STEP.about],
    ['auto-skip: blank city', true, true, true, { city: ' ' }, STEP.location],
    ['auto-skip: gender set', true, true, true, { gender: 'female' }, STEP.notes],
    ['auto-skip: date of birth', true, true, true, { date_of_birth: '1990-01-01' }, STEP.notes],
    [
      'auto-skip: personal text',
      true,
      true,
      true,
      { city: 'Utrecht', gender: 'male', personal: 'Hello' },
      STEP.progress,
    ],
    ['auto-skip, nothing set', false, false, true, { personal: null }, STEP.photo],
  ])('%s', (_name, pushOffered, hasMainImage, autoSkip, profile, step) => {
    const t = signupReducer(initialSignup(true), {
      type: 'resume',
      pushOffered,
      hasMainImage,
      autoSkip,
      profile,
    })
    expect(t.state.step).toBe(step)
    expect(t.state.showPush).toBe(pushOffered)
  })

  it('resuming onto step 3 requests geolocation; onto 6 starts polling', () => {
    const r3 = signupReducer(initialSignup(true), {
      type: 'resume',
      pushOffered: true,
      hasMainImage: true,
      autoSkip: false,
      profile: {},
    })
    expect(types(r3.effects)).toContain('request_geolocation')
    const r6 = signupReducer(initialSignup(true), {
      type: 'resume',
      pushOffered: true,
      hasMainImage: true,
      autoSkip: true,
      profile: { personal: 'Hi' },
    })
    expect(types(r6.effects)).toContain('poll_activation')
  })

  it('a running flow does not jump back on a late resume', () => {
    const t = signupReducer(at(STEP.notes), {
      type: 'resume',
      pushOffered: true,
      hasMainImage: false,
      autoSkip: false,
      profile: {},
    })
    expect(t.state.step).toBe(STEP.notes)
  })
})

describe('step 6: activation progress', () => {
  it('ends after 20 ticks of 900 ms without delivery, then step 7 and flow-complete', () => {
    let state = at(STEP.progress)
    for (let i = 1; i < ACTIVATION_TICKS; i++) {
      const t = signupReducer(state, { type: 'activation_tick', delivered: false })
      state = t.state
      expect(state).toMatchObject({ step: STEP.progress, tick: i })
      expect(t.effects).toEqual([])
    }
    const last = signupReducer(state, { type: 'activation_tick', delivered: false })
    expect(last.state).toMatchObject({ step: STEP.done, tick: ACTIVATION_TICKS })
    expect(types(last.effects)).toEqual(['save_step', 'flow_complete'])
  })

  it('ends early when delivery is confirmed', () => {
    const t = signupReducer(at(STEP.progress, true, 2), {
      type: 'activation_tick',
      delivered: true,
    })
    expect(t.state).toMatchObject({ step: STEP.done, tick: 3 })
    expect(types(t.effects)).toContain('flow_complete')
  })

  it('ignores ticks outside step 6', () => {
    const t = signupReducer(at(STEP.done, true, 5), { type: 'activation_tick', delivered: true })
    expect(t.state).toEqual(at(STEP.done, true, 5))
    expect(t.effects).toEqual([])
  })

  it.each([
    [0, 0],
    [3, 0],
    [4, 1],
    [6, 1],
    [7, 2],
    [9, 2],
    [10, 3],
    [20, 3],
  ])('text at tick %i is #%i (changes at 4, 7, 10)', (tick, index) =>
    expect(activationTextIndex(tick)).toBe(index),
  )

  it('entering step 6 starts a fresh count', () => {
    const t = signupReducer(at(STEP.notes, true, 9), { type: 'next' })
    expect(t.state.tick).toBe(0)
  })
})

describe('effects on entering a step', () => {
  it.each<[Step, string[]]>([
    [0, []],
    [1, ['save_step']],
    [2, ['save_step']],
    [3, ['save_step', 'request_geolocation']],
    [4, ['save_step']],
    [5, ['save_step']],
    [6, ['save_step', 'poll_activation']],
    [7, ['save_step', 'flow_complete']],
  ])('step %i → %j', (step, effects) => expect(types(effectsOnEnter(step))).toEqual(effects))
})

describe('sign-ups enabled (spec §5) and the invite-only notice (spec §2)', () => {
  const net = { network: 'affiliate-1' }
  it.each([
    ['all', null, true],
    ['all', net, true],
    ['with_trafficsource', net, true],
    ['with_trafficsource', null, false],
    ['other', net, false],
    ['other', null, false],
  ] as const)('signups=%s network=%j → %s', (signups, network, want) =>
    expect(signupsEnabled(signups, network)).toBe(want),
  )

  it.each([
    [true, false, false],
    [true, true, false],
    [false, true, false],
    [false, false, true],
  ])('enabled=%s loggedIn=%s → notice %s', (enabled, loggedIn, want) =>
    expect(showInviteOnly(enabled, loggedIn)).toBe(want),
  )
})
