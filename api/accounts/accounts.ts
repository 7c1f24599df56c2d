// Accounts: sign-up, the email check, the member's own account data and
// deleting it (spec §3–§5). Routes stay thin; the rules live here.
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { perDatabase } from '../../db/prepared.ts'
import { accountTokens, members } from '../../db/schema/index.ts'
import {
  type AccountUser,
  DATE_OF_BIRTH_ERROR,
  dateOfBirthProblem,
  defaultName,
  Email,
  type EmailStatus,
  type Image,
  MIN_AGE,
  nameProblem,
  type ProfilePatch,
  type Settings,
  type SignupRequest,
  type TextInReview,
  type UserUpdateRequest,
} from '../contract/index.ts'
import { signupsOpen as signupsOpenRule } from '../contract/rules/signups.ts'
import { ApiFailure } from '../http/errors.ts'
import { dropMemberImages, imageOf, ownImagesSql, queueFileRemoval } from '../images/index.ts'
import { dropMemberVoices } from '../chats/index.ts'
import { dropLikesOf } from '../likes/index.ts'
import { type Mailer, storeMail } from '../mail/mailer.ts'
import { type LinkBase, link, mailsAllowed } from '../mail/site.ts'
import { reviewProfileTexts, textsInReviewSql } from '../moderation/index.ts'
import { allowedValues } from '../profiles/index.ts'
import { dropSubscriptions, hasPushSubscriptionSql } from '../push/index.ts'
import { isKnownCountry, isRegionOf } from '../reference/index.ts'
import { endAllSessions } from '../sessions/index.ts'
import { hiddenAsFakeSql } from '../shared/reports.ts'
import { dropVerifications } from '../verification/index.ts'
import { dummyHash, hashPassword, verifyPassword } from './password.ts'
import { holdFlaggedTexts } from './profile-review.ts'
import { createToken, voidTokens } from './tokens.ts'
import { type MemberRow, userOf } from './user.ts'

export { type LinkBase, link, mailsAllowed }

/**
 * Placeholders for what sign-up step 0 does not ask but the members table
 * requires (NOT NULL; db/schema/ is not ours to change): they stand until
 * steps 3 and 4 set the real values, and AccountState.missing names them.
 * None can match a search: search filters gender by 'male'/'female', country
 * by a real code, and ages 18–100 (1900 is far outside).
 */
export const UNSET_GENDER = ''
export const UNSET_DATE_OF_BIRTH = '1900-01-01'
export const UNSET_COUNTRY = ''

export const normalizeEmail = (email: string) => email.trim().toLowerCase()

/**
 * The key of an address's failed logins (rate limit login_account), and the
 * scope of its per-address keys (rate limit login); an unlock link and a
 * finished reset clear both (api/accounts/login-unlock.ts).
 */
export const loginAccountKey = (email: string) => `account:${normalizeEmail(email)}`

/** Spec §3 mailprovider: 2 means Gmail; other providers are not numbered (0). */
export const mailproviderOf = (email: string) =>
  /@(gmail|googlemail)\.com$/i.test(email.trim()) ? 2 : 0

/** Spec §5: sign-ups are open for `all`, or `with_trafficsource` with a network entry. */
export const signupsOpen = (settings: Settings, network: string | undefined) =>
  signupsOpenRule(settings.signups, network)

/** Spec §3 email check result (GET /api/validate_email.php). */
export async function emailStatus(db: Db, raw: string): Promise<EmailStatus> {
  const parsed = Email.safeParse(raw)
  if (!parsed.success) return 'invalid'
  const [row] = await db
    .select({ activatedAt: members.activatedAt, deletedAt: members.deletedAt })
    .from(members)
    .where(eq(members.email, normalizeEmail(parsed.data)))
  if (!row) return 'new'
  if (row.deletedAt) return 'deleted'
  return row.activatedAt ? 'active' : 'not_confirmed'
}

/** What a service that mails needs: the site name, the link base and the mailer. */
export interface MailContext {
  settings: Settings
  links: LinkBase
  mailer: Mailer
}

export type SignupOutcome = { created: true; memberId: number } | { created: false }

/** The columns a profile patch sets, after every §5 rule. */
export type MemberChanges = Partial<typeof members.$inferInsert>

/**
 * Sign-up (POST /api/user.php?new=1). The member, the activation token and
 * the mail row commit together; the caller sends the mail and starts the
 * session afterwards. An address that already has an account is not told
 * apart in the answer: nothing is created and, if the account is
 * live, its owner gets a "someone tried to sign up" mail instead. The
 * password is hashed on both paths, so both cost the same.
 *
 * Trade-off, written down: GET /api/validate_email.php must say whether an
 * address has an account (spec §3 status active/not_confirmed/deleted; the
 * §5 form shows a login link for it), and a new account must be signed in at
 * once (steps 1–7 need a session), so a determined prober can still tell the
 * two apart: by validate_email, or by the session cookie only a new account
 * gets. What this design does guarantee: the status code and body are the
 * same, no session or data of the existing account is ever handed out, the
 * owner learns of the attempt, and every oracle is rate-limited per client
 * (validate_email 120/10 min, sign-up 10/hour) so addresses cannot be
 * checked in bulk.
 */
export async function signup(
  db: Db,
  input: z.infer<typeof SignupRequest>,
  ctx: MailContext & { country: string | null; site?: string },
): Promise<SignupOutcome> {
  const email = normalizeEmail(input.email)
  const language = input.language ?? 'en'
  const country = input.country ?? ctx.country ?? UNSET_COUNTRY
  if (country !== UNSET_COUNTRY && !isKnownCountry(country)) {
    throw new ApiFailure(400, 'invalid_input', 'country', 'country: unknown')
  }
  const profile = input.profile ?? {}
  const changes = profileChanges(profile, { email, settings: ctx.settings, notes: {}, fields: {} })
  const name = input.name?.trim() || defaultName(input.email)
  const passwordHash = await hashPassword(input.password)

  const mailIds: number[] = []
  const outcome = await db.transaction(async (tx): Promise<SignupOutcome> => {
    const [row] = await tx
      .insert(members)
      .values({
        email,
        passwordHash,
        name,
        gender: UNSET_GENDER,
        dateOfBirth: UNSET_DATE_OF_BIRTH,
        country,
        language,
        mailprovider: mailproviderOf(email),
        timezone: input.timezone ?? 'UTC',
        trafficsource: input.trafficsource ?? null,
        signupSite: ctx.site ?? null,
        signupMeta: {
          form_path: input.form_path ?? null,
          referrer: input.referrer ?? null,
          token: input.token ?? null,
          n: input.n ?? null,
        },
        ...changes,
      })
      // members_email_key makes two sign-ups with one address race-safe.
      .onConflictDoNothing({ target: members.email })
      .returning()
    // A request to a foreign host gets its account but no mail (its link
    // would point there); the member asks for a new one from the site.
    if (row && !mailsAllowed(ctx.links)) return { created: true, memberId: row.id }
    if (row) {
      const token = await createToken(tx, row.id, 'activate')
      mailIds.push(
        await storeMail(tx, {
          memberId: row.id,
          kind: 'activate',
          to: email,
          locale: language,
          vars: {
            name,
            site: ctx.settings.name,
            link: link(ctx.links, `/api/activate.php?token=${token}`),
          },
        }),
      )
      return { created: true, memberId: row.id }
    }
    const [owner] = await tx.select().from(members).where(eq(members.email, email))
    if (owner && !owner.deletedAt && mailsAllowed(ctx.links)) {
      mailIds.push(
        await storeMail(tx, {
          memberId: owner.id,
          kind: 'signup_exists',
          to: owner.email,
          locale: owner.language,
          vars: { name: owner.name, site: ctx.settings.name, link: link(ctx.links, '/login') },
        }),
      )
    }
    return { created: false }
  })
  ctx.mailer.send(db, mailIds)
  return outcome
}

/**
 * The columns a profile patch changes, after the §5 rules; throws the 400s.
 * `notes`/`fields` are the member's current values (patched, not replaced).
 */
export function profileChanges(
  patch: Omit<ProfilePatch, 'lastSignupStep'> & { lastSignupStep?: number },
  ctx: {
    email: string
    settings: Settings
    notes: Record<string, string>
    fields: Record<string, string>
    lastSignupStep?: number
  },
  today = new Date(),
): MemberChanges {
  const out: MemberChanges = {}
  if (patch.name !== undefined) {
    const name = patch.name.trim()
    const problem = nameProblem(name, ctx.email)
    if (problem) throw new ApiFailure(400, 'invalid_input', 'profile.name', `name: ${problem}`)
    out.name = name
  }
  if (patch.gender !== undefined) out.gender = patch.gender
  if (patch.date_of_birth !== undefined) {
    if (dateOfBirthProblem(patch.date_of_birth, today)) {
      throw new ApiFailure(
        400,
        DATE_OF_BIRTH_ERROR,
        'profile.date_of_birth',
        `date of birth: a real date, at least ${MIN_AGE} years ago`,
        { min_age: MIN_AGE },
      )
    }
    out.dateOfBirth = patch.date_of_birth
  }
  if (patch.language !== undefined) out.language = patch.language
  if (patch.personal !== undefined) out.personal = patch.personal?.trim() || null
  if (patch.notes !== undefined) {
    const notes = { ...ctx.notes }
    const allowed = ctx.settings.visible_profile_notes
    for (const [key, value] of Object.entries(patch.notes)) {
      if (!allowed.includes(key)) {
        throw new ApiFailure(400, 'invalid_input', `profile.notes.${key}`, 'not a notes field')
      }
      const v = value.trim()
      // `personal` is the spec Profile's own field; the rest live in notes.
      if (key === 'personal') out.personal = v || null
      else if (v) notes[key] = v
      else delete notes[key]
    }
    out.notes = notes
  }
  if (patch.profile_fields !== undefined) {
    const fields = { ...ctx.fields }
    const allowed = allowedValues(ctx.settings.visible_profile_fields)
    for (const [key, value] of Object.entries(patch.profile_fields)) {
      const values = key === 'gender' ? undefined : allowed[key]
      if (!values || (value !== null && !values.includes(value))) {
        throw new ApiFailure(400, 'invalid_input', `profile.profile_fields.${key}`, 'not allowed')
      }
      if (value === null) delete fields[key]
      else fields[key] = value
    }
    out.profileFields = fields
  }
  if (patch.lastSignupStep !== undefined) {
    // Spec §4: steps only move forward; a stale tab cannot move a member back.
    out.lastSignupStep = Math.max(patch.lastSignupStep, ctx.lastSignupStep ?? 0)
  }
  return out
}

/** The member's own account: the spec User plus AccountState. */
function accountUserOf(
  row: MemberRow,
  imgs: Image[],
  pending: string | null,
  hasPush: boolean,
  inReview: string | null,
  hiddenAsFake: boolean,
): AccountUser {
  const missing: AccountUser['account']['missing'] = []
  if (row.gender !== 'male' && row.gender !== 'female') missing.push('gender')
  if (row.dateOfBirth === UNSET_DATE_OF_BIRTH) missing.push('date_of_birth')
  if (row.country === UNSET_COUNTRY) missing.push('country')
  return {
    ...userOf(row, imgs),
    account: {
      activated: row.activatedAt !== null,
      last_signup_step: row.lastSignupStep,
      missing,
      profile_fields: row.profileFields ?? {},
      notes: row.notes ?? {},
      timezone: row.timezone,
      pending_email: pending,
      has_push_subscription: hasPush,
      texts_in_review: (inReview?.split(',') ?? []) as TextInReview[],
      hidden_as_fake: hiddenAsFake,
    },
  }
}

/**
 * The member's own account in one statement (GET and PUT /api/user.php): the
 * member row, whether a device of theirs gets pushes, a pending e-mail change
 * (the rule of `pendingEmail`) and their own pictures (pending ones too), in
 * one round trip and one snapshot, built once (on PostgreSQL a named
 * prepared statement).
 */
const accountUserQuery = perDatabase((db) => {
  // Spelled out: in a one-table select drizzle writes a column without its
  // table, and inside the subqueries a bare "id" would be theirs.
  const memberId = sql.raw('"members"."id"')
  return db
    .select({
      member: members,
      hasPush: sql<boolean>`${hasPushSubscriptionSql(memberId)}`,
      pendingEmail: sql<string | null>`(SELECT t.new_email FROM ${accountTokens} t
        WHERE t.member_id = ${memberId} AND t.kind = 'mail_change' AND t.used_at IS NULL
          AND t.expires_at > ${sql.placeholder('now')}
        ORDER BY t.created_at DESC LIMIT 1)`,
      images: ownImagesSql(memberId),
      inReview: sql<string | null>`${textsInReviewSql(memberId)}`,
      hiddenAsFake: sql<boolean>`(${sql.placeholder('fakeReports')}::int > 0
        AND ${memberId} IN ${hiddenAsFakeSql(sql.placeholder('fakeReports'))})`,
    })
    .from(members)
    .where(and(eq(members.id, sql.placeholder('member')), isNull(members.deletedAt)))
    .prepare('account_user')
})

/**
 * The live member's own account; undefined when deleted or unknown.
 * `fakeReportsToHide`: the site's settings.fake_reports_to_hide.
 */
export async function accountUserById(
  db: Db,
  memberId: number,
  fakeReportsToHide = 0,
): Promise<AccountUser | undefined> {
  const [row] = await accountUserQuery(db).execute({
    member: memberId,
    now: new Date(),
    fakeReports: fakeReportsToHide,
  })
  if (!row) return undefined
  return accountUserOf(
    row.member,
    row.images.map(imageOf),
    row.pendingEmail,
    row.hasPush,
    row.inReview,
    row.hiddenAsFake,
  )
}

/**
 * Checks the member's current password (DELETE /api/user.php, mail change):
 * 401 wrong_password naming the field. A deleted or unknown member costs the
 * same hash as a wrong password.
 */
export async function checkPassword(
  db: Db,
  memberId: number,
  password: string,
): Promise<MemberRow> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.id, memberId), isNull(members.deletedAt)))
  const ok = await verifyPassword(row?.passwordHash ?? (await dummyHash()), password)
  if (!row || !ok) throw new ApiFailure(401, 'wrong_password', 'password')
  return row
}

/**
 * Deletes an account (soft: deleted_at, so validate_email answers `deleted`
 * and the address stays taken). Every session and push subscription goes,
 * and open mailed links stop working. The member's pictures go too: their
 * rows here, their files after the commit (the answer names them for the
 * caller to delete at once; a queued media.delete job makes sure).
 */
export async function deleteAccount(db: Db, memberId: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx
      .update(members)
      .set({ deletedAt: new Date(), mainImageId: null })
      .where(and(eq(members.id, memberId), isNull(members.deletedAt)))
    // A verification selfie still waiting goes with them (api/verification/).
    const files = [
      ...(await dropMemberImages(tx, memberId)),
      ...(await dropVerifications(tx, memberId)),
      // Their voice messages' recordings (api/chats/voice.ts).
      ...(await dropMemberVoices(tx, memberId)),
    ]
    await queueFileRemoval(tx, files)
    await endAllSessions(tx, memberId)
    // A deleted account has no likes either way: other members' lists and
    // counts then never need to look the account up (api/likes/likes.ts).
    await dropLikesOf(tx, memberId)
    await dropSubscriptions(tx, memberId)
    for (const kind of ['activate', 'reset', 'mail_change', 'login_unlock'] as const) {
      await voidTokens(tx, memberId, kind)
    }
    return files
  })
}

/**
 * PUT /api/user.php. `country` replaces the whole location: region and city
 * not sent mean none (spec §4 step 3: region and city are optional).
 */
export async function updateAccount(
  db: Db,
  row: MemberRow,
  req: z.infer<typeof UserUpdateRequest>,
  settings: Settings,
): Promise<MemberRow> {
  const changes: MemberChanges = req.profile
    ? profileChanges(req.profile, {
        email: row.email,
        settings,
        notes: row.notes ?? {},
        fields: row.profileFields ?? {},
        lastSignupStep: row.lastSignupStep,
      })
    : {}
  if (req.country !== undefined) {
    if (!isKnownCountry(req.country)) {
      throw new ApiFailure(400, 'invalid_input', 'country', 'country: unknown')
    }
    const region = req.countryregion ?? null
    if (region !== null && !isRegionOf(req.country, region)) {
      throw new ApiFailure(400, 'invalid_input', 'countryregion', 'countryregion: not of country')
    }
    changes.country = req.country
    changes.countryregion = region
    changes.city = req.city?.trim() || null
  }
  // Texts that fire a scam signal wait for a moderator instead (docs/law.md).
  const review = holdFlaggedTexts(changes)
  if (Object.keys(review.held).length > 0 || review.published.length > 0) {
    await reviewProfileTexts(db, row.id, review.held, review.signals, review.published)
  }
  if (Object.keys(changes).length === 0) return row
  const [updated] = await db
    .update(members)
    .set(changes)
    .where(and(eq(members.id, row.id), isNull(members.deletedAt)))
    .returning()
  if (!updated) throw new ApiFailure(403, 'not_logged_in')
  return updated
}

/** The live (not deleted) member with this address, if any. */
export async function memberByEmail(db: Db, email: string) {
  const [member] = await db
    .select()
    .from(members)
    .where(and(eq(members.email, normalizeEmail(email)), isNull(members.deletedAt)))
  return member
}
