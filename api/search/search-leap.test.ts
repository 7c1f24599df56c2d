// Ages on 29 February: the search's age range and the age shown agree.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { members } from '../../db/schema/index.ts'
import { ageOn } from '../profiles/profiles.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMembers } from '../test/seed.ts'
import { searchWhere } from './search.ts'

describeEngines('age range on a leap day on %s', (engine) => {
  let t: TestDatabase
  const today = new Date(Date.UTC(2028, 1, 29)) // 29 February 2028

  beforeAll(async () => {
    t = await freshDatabase(engine)
    await addMembers(t.db, [
      { email: 'feb28@example.com', dateOfBirth: '1998-02-28', gender: 'female', country: 'NL' },
      { email: 'mar01@example.com', dateOfBirth: '1998-03-01', gender: 'female', country: 'NL' },
    ])
  })
  afterAll(() => t.close())

  it('finds exactly the members whose shown age is in range', async () => {
    const filters = {
      gender: 'female',
      country: 'NL',
      countryregion: null,
      min_age: 30,
      max_age: 30,
      verified: false,
    }
    const rows = await t.db
      .select({ email: members.email, dob: members.dateOfBirth })
      .from(members)
      .where(
        and(searchWhere(null, { ...filters, gender: 'female' }, today), eq(members.country, 'NL')),
      )
    expect(rows.map((r) => r.email)).toEqual(['feb28@example.com'])
    expect(ageOn('1998-02-28', today)).toBe(30)
    expect(ageOn('1998-03-01', today)).toBe(29)
  })
})
