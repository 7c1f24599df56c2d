// A second published demo login, for trying (and testing in a browser) what
// one member's actions look like to another: the demo member likes her, she
// logs in and sees the like. She is a paid member, so she also shows the
// member grid without webcam tiles (spec §6). Created only when the demo seed
// runs (DEMO_SEED=on, never in production) with `secondDemo: true`.
import { dateOfBirth, type MemberSpec } from './people.ts'

export const SECOND_DEMO_EMAIL = 'demo2@example.com'
export const SECOND_DEMO_NAME = 'Demo Two'

const DAY = 86_400_000

export function secondDemoSpec(now: Date, passwordHash: string): MemberSpec {
  // Signed up, and last active, longer ago than any generated member: she
  // sorts last in search (ordered by last activity), so a search that finds
  // her in Belgium, aged 26-35, has to page forward to reach her.
  const signupDate = new Date(now.getTime() - 400 * DAY)
  return {
    row: {
      email: SECOND_DEMO_EMAIL,
      passwordHash,
      name: SECOND_DEMO_NAME,
      gender: 'female',
      dateOfBirth: dateOfBirth(now, 30, 100),
      country: 'BE',
      countryregion: 'BE-VAN',
      city: 'Antwerp',
      personal: 'Second demo member of this site. Loves the harbour, markets and long bike rides.',
      profileFields: { relationship: 'single', height: '170' },
      notes: { looking_for: 'Someone to share a coffee and a walk along the Scheldt.' },
      language: 'en',
      paidUser: true,
      fictional: false,
      signupDate,
      lastActiveAt: new Date(signupDate.getTime() + DAY),
      activatedAt: new Date(signupDate.getTime() + 5 * 60_000),
      lastSignupStep: 7,
    },
    age: 30,
    avatarSeed: 'demo-member-two',
    pictures: 2,
  }
}
