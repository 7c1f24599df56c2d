// Accounts (spec §2–§5, §7, §8): sign-up, the member's own account,
// email check, activation, password reset, mail change, pictures, and the
// reference data of the sign-up steps. Zod only, so the sync worker and the
// sign-up form use the very same rules as the server.
import { z } from 'zod'
import { Gender, Id, Image, Locale } from './common.ts'
import { User } from './profile.ts'
import {
  CITY_MAX,
  EMAIL_MAX,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_FILES,
  IMAGE_MAX_PER_MEMBER,
  IMAGE_MAX_PIXELS,
  NAME_MAX,
  NOTE_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  TOKEN_MAX,
} from './rules/limits.ts'
import { TRACKING_VALUE } from './rules/tracking.ts'
import { MIN_AGE } from './search.ts'

export {
  CITY_MAX,
  EMAIL_MAX,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_FILES,
  IMAGE_MAX_PER_MEMBER,
  IMAGE_MAX_PIXELS,
  NAME_MAX,
  NOTE_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
}
/** Spec §9: sign-up steps 0–7. */
export const LAST_SIGNUP_STEP = 7

// PostgreSQL text cannot hold NUL: refused by the schema rather than by the query.
const noNul = (s: string) => !s.includes('\0')
const text = (max: number) => z.string().max(max).refine(noNul, 'must not contain NUL')

/** An email address as typed: trimmed; the server compares it lower-cased. */
export const Email = z
  .string()
  .trim()
  .max(EMAIL_MAX)
  .pipe(z.email('Value is not a valid email address'))

/** ISO 3166-1 alpha-2, any case in, upper case out. */
export const CountryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
  .transform((c) => c.toUpperCase())

/** Spec §5 name rules; the problem, or null when the name is fine. */
export function nameProblem(
  name: string,
  email: string,
): 'required' | 'too_long' | 'at_sign' | 'equals_email' | null {
  if (name.trim().length === 0) return 'required'
  if (name.length > NAME_MAX) return 'too_long'
  if (name.startsWith('@')) return 'at_sign'
  if (name.trim().toLowerCase() === email.trim().toLowerCase()) return 'equals_email'
  return null
}

/** Spec §5: an empty name defaults to the part of the email before @ (cut to the max). */
export const defaultName = (email: string) => email.trim().split('@')[0]?.slice(0, NAME_MAX) ?? ''

/**
 * Spec §5 date of birth: YYYY-MM-DD, a real calendar date, no 00 parts, at
 * least MIN_AGE (18) years old on `today` (UTC). Any failure is the one spec
 * error `profile.date_of_birth_error` (see DateOfBirthError).
 */
export function dateOfBirthProblem(
  value: string,
  today = new Date(),
): 'invalid' | 'too_young' | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return 'invalid'
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (y === 0 || mo === 0 || d === 0) return 'invalid'
  const date = new Date(Date.UTC(y, mo - 1, d))
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) {
    return 'invalid'
  }
  // Born no later than this day MIN_AGE years ago (a 29 Feb birthday turns on 1 Mar).
  const limit = new Date(
    Date.UTC(today.getUTCFullYear() - MIN_AGE, today.getUTCMonth(), today.getUTCDate()),
  )
  if (date > limit) return 'too_young'
  // The picker's range ends at 100 (§9); older than 150 is a typo, not a member.
  if (y < today.getUTCFullYear() - 150) return 'invalid'
  return null
}

/** The 400 of a bad date of birth (spec §5): code, field and the minimum age. */
export const DATE_OF_BIRTH_ERROR = 'profile.date_of_birth_error'
export const DateOfBirthError = z.object({
  error: z.literal(DATE_OF_BIRTH_ERROR),
  field: z.literal('profile.date_of_birth'),
  message: z.string().optional(),
  min_age: z.number().int(),
})
export type DateOfBirthError = z.infer<typeof DateOfBirthError>

/** Spec §3 tracking record "network" (affiliate traffic). */
/** Spec §3 tracking record; every value matches TRACKING_VALUE (rules/tracking.ts). */
const trackingValue = z.string().regex(TRACKING_VALUE, 'not a tracking value')
export const Trafficsource = z.object({
  network: trackingValue,
  ref: trackingValue.optional(),
  sub1: trackingValue.optional(),
  sub2: trackingValue.optional(),
  sub3: trackingValue.optional(),
  cpc: trackingValue.optional(),
  lander: trackingValue.optional(),
})
export type Trafficsource = z.infer<typeof Trafficsource>

/**
 * The profile part of sign-up and of PUT /api/user.php. Every key optional;
 * `null` clears an optional value. `date_of_birth` is checked by
 * dateOfBirthProblem on the server (400 DateOfBirthError), `profile_fields`
 * values against GET /api/profile_fields.php (400 field
 * `profile.profile_fields.<name>`), `notes` keys against
 * settings.visible_profile_notes (400 field `profile.notes.<name>`).
 */
export const ProfilePatch = z
  .object({
    name: text(NAME_MAX).optional(),
    gender: Gender.optional(),
    date_of_birth: text(10).optional(),
    personal: text(NOTE_MAX).nullable().optional(),
    notes: z.record(text(64), text(NOTE_MAX)).optional(),
    profile_fields: z.record(text(64), text(64).nullable()).optional(),
    language: Locale.optional(),
    /** The sign-up step the member has reached (spec §4 resume). */
    lastSignupStep: z.number().int().min(0).max(LAST_SIGNUP_STEP).optional(),
  })
  .strict()
export type ProfilePatch = z.infer<typeof ProfilePatch>

/**
 * POST /api/user.php?new=1 (spec §3 sign-up payload). `csrf` is accepted and
 * ignored: the API refuses cross-origin writes by Origin/Sec-Fetch-Site.
 * `token` and `n` are kept with the account's sign-up data (meaning not shown).
 * `country`, when sent, must be a known country (400 field country); without
 * it the member has none until step 3 (see AccountState.missing).
 */
export const SignupRequest = z
  .object({
    email: Email,
    name: text(NAME_MAX).optional(),
    password: z.string().min(1).max(PASSWORD_MAX),
    trafficsource: Trafficsource.nullable().optional(),
    timezone: text(64)
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: tz })
          return true
        } catch {
          return false
        }
      }, 'unknown time zone')
      .optional(),
    country: CountryCode.optional(),
    language: Locale.optional(),
    profile: ProfilePatch.omit({ lastSignupStep: true, name: true }).optional(),
    form_path: text(2048).optional(),
    referrer: text(2048).optional(),
    csrf: text(256).optional(),
    token: text(256).optional(),
    n: z.union([text(64), z.number()]).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.name === undefined || v.name === '') return
    const problem = nameProblem(v.name, v.email)
    if (problem) ctx.addIssue({ code: 'custom', path: ['name'], message: `name: ${problem}` })
  })
export type SignupRequest = z.input<typeof SignupRequest>

/**
 * The sign-up answer is the same whether or not the email was free:
 * sign-up does not reveal whether an email exists. A new account also gets
 * the session cookie; the client then reads GET /api/user.php. Without a
 * session (the address was taken) the owner got a mail instead: show "check
 * your mail". Other failures: 400 invalid_input (field), 400
 * profile.date_of_birth_error, 403 signups_closed (spec §5), 429 rate_limited.
 */
export const SignupResponse = z.object({ status: z.literal('received') })
export type SignupResponse = z.infer<typeof SignupResponse>

/** What a member still has to give before their profile is complete (spec §4 resume). */
export const MissingField = z.enum(['gender', 'date_of_birth', 'country'])
export type MissingField = z.infer<typeof MissingField>

export const TEXTS_IN_REVIEW = ['name', 'notes', 'personal'] as const
export type TextInReview = (typeof TEXTS_IN_REVIEW)[number]

/** The member's own account data beyond the spec User (for /signup, /complete-signup, /profile). */
export const AccountState = z.object({
  activated: z.boolean(),
  last_signup_step: z.number().int(),
  /** Placeholders stand in the User for these until the member sets them. */
  missing: z.array(MissingField),
  profile_fields: z.record(z.string(), z.string()),
  notes: z.record(z.string(), z.string()),
  timezone: z.string(),
  /** The address a mail change waits to confirm, if any. */
  pending_email: z.string().nullable(),
  has_push_subscription: z.boolean(),
  /**
   * Profile texts held for a moderator's review (they fired a scam signal):
   * others see the previous text until it is approved (docs/law.md).
   */
  texts_in_review: z.array(z.enum(TEXTS_IN_REVIEW)).optional(),
  /**
   * Reported as a fake profile by settings.fake_reports_to_hide members and
   * not verified: hidden from search until photo verification (docs/law.md).
   */
  hidden_as_fake: z.boolean().optional(),
})
export type AccountState = z.infer<typeof AccountState>

/** GET/PUT /api/user.php answer: the spec User plus `account` (a superset, so User.parse still works). */
export const AccountUser = User.extend({ account: AccountState })
export type AccountUser = z.infer<typeof AccountUser>

/**
 * PUT /api/user.php: `{country, countryregion, city}` and/or `{profile}`.
 * `country` replaces the whole location: countryregion and city left out
 * mean none. countryregion must be a region of the country (400 field
 * countryregion); region and city need `country` in the same request.
 * Answers AccountUser.
 */
export const UserUpdateRequest = z
  .object({
    country: CountryCode.optional(),
    countryregion: text(16).nullable().optional(),
    city: z.string().trim().max(CITY_MAX).refine(noNul).nullable().optional(),
    profile: ProfilePatch.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.countryregion != null || v.city != null) && v.country === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['country'],
        message: 'country: required with a region or city',
      })
    }
  })
export type UserUpdateRequest = z.input<typeof UserUpdateRequest>

/**
 * POST /api/user.php?push=1 (signed in): a browser's PushSubscription JSON
 * (spec §4: added to the account after sign-up when the browser is subscribed).
 */
export const PushSubscribeRequest = z.object({
  subscription: z.object({
    // http passes the shape; the route refuses it (400) unless the push
    // service is one the server trusts as it is (the local one in tests).
    endpoint: z.url({ protocol: /^https?$/ }).max(2048),
    keys: z.object({
      p256dh: text(256).pipe(z.string().min(1)),
      auth: text(256).pipe(z.string().min(1)),
    }),
  }),
})
export type PushSubscribeRequest = z.input<typeof PushSubscribeRequest>
export const PushSubscribeResponse = z.object({ status: z.literal('subscribed') })
export type PushSubscribeResponse = z.infer<typeof PushSubscribeResponse>

/** DELETE /api/user.php: the current password (401 wrong_password, field password). */
export const DeleteAccountRequest = z.object({ password: z.string().min(1).max(PASSWORD_MAX) })
export type DeleteAccountRequest = z.input<typeof DeleteAccountRequest>
export const DeleteAccountResponse = z.object({ status: z.literal('deleted') })
export type DeleteAccountResponse = z.infer<typeof DeleteAccountResponse>

/**
 * The member's own data as one JSON file (GDPR Art. 15 access, Art. 20
 * portability), served as a download; its members are described in
 * api/accounts/export.ts (`format` names the version of the shape).
 */
export const AccountExport = z.object({ format: z.number().int() }).catchall(z.unknown())

/** Spec §3 email check result. Malformed input is status invalid, not a 400 (spec §8). */
export const EmailStatus = z.enum(['new', 'active', 'not_confirmed', 'deleted', 'invalid'])
export type EmailStatus = z.infer<typeof EmailStatus>
export const ValidateEmailQuery = z.object({ email: z.string().max(1000).default('') })
export type ValidateEmailQuery = z.input<typeof ValidateEmailQuery>
export const ValidateEmailResponse = z.object({
  status: EmailStatus,
  /** Not shown in the spec; always null here. */
  token: z.string().nullable(),
  /** The address as the server reads it (trimmed, lower case). */
  email: z.string(),
  /** The address as sent. */
  request_email: z.string(),
})
export type ValidateEmailResponse = z.infer<typeof ValidateEmailResponse>

/**
 * Activation. The mailed link is GET /api/activate.php?token=… which
 * redirects (302) to /activate/done, or /activate/error for a used, expired
 * or unknown token. Without a token (signed in): whether the member's
 * activation mail has left (spec §4 step 6, polled every 900 ms).
 */
export const ActivateQuery = z.object({ token: text(128).optional() })
export type ActivateQuery = z.input<typeof ActivateQuery>
export const ActivateStatusResponse = z.object({
  delivered: z.boolean(),
  activated: z.boolean(),
})
export type ActivateStatusResponse = z.infer<typeof ActivateStatusResponse>
/** POST /api/activate.php (signed in): mail the activation link again (429 when too often). */
export const ResendActivationResponse = z.object({ status: z.enum(['sent', 'already_active']) })
export type ResendActivationResponse = z.infer<typeof ResendActivationResponse>

/** A mailed token as the pages /reset-password/do, /mail-change/do and /login-unlock read it from `?token=`. */
export const MailToken = text(TOKEN_MAX).pipe(z.string().min(1))

/** POST /api/reset_password.php: always `{status: 'sent'}`, registered or not (429 when too often). */
export const ResetPasswordRequest = z.object({ email: Email })
export type ResetPasswordRequest = z.input<typeof ResetPasswordRequest>
export const ResetPasswordResponse = z.object({ status: z.literal('sent') })
export type ResetPasswordResponse = z.infer<typeof ResetPasswordResponse>

/**
 * POST /api/reset_password.php?do=1: sets the password, ends every session of
 * the member, activates an unconfirmed account (the mailbox is proven) and
 * signs this browser in with a new session. 400 invalid_token (field token)
 * for a used, expired or unknown token.
 */
export const ResetPasswordDoRequest = z.object({
  token: MailToken,
  password: z.string().min(1).max(PASSWORD_MAX),
})
export type ResetPasswordDoRequest = z.input<typeof ResetPasswordDoRequest>
export const ResetPasswordDoResponse = z.object({ status: z.literal('done') })
export type ResetPasswordDoResponse = z.infer<typeof ResetPasswordDoResponse>

/**
 * POST /api/login_unlock.php (no session needed): the link mailed to a member
 * whose login was refused with 429 (api/accounts/login-unlock.ts), opened on
 * /login-unlock. Clears the account's login limits, for every address; signs
 * nobody in (the password is still asked). 400 invalid_token (field token)
 * for a used, expired or unknown token.
 */
export const LoginUnlockRequest = z.object({ token: MailToken })
export type LoginUnlockRequest = z.input<typeof LoginUnlockRequest>
export const LoginUnlockResponse = z.object({ status: z.literal('done') })
export type LoginUnlockResponse = z.infer<typeof LoginUnlockResponse>

/**
 * POST /api/mail_change.php (signed in): mails the new address a link to
 * /mail-change/do and tells the old one (link to
 * /notifications#email-change-incorrect). 401 wrong_password (field
 * password); 400 same_email (field email). A taken address gets the same
 * answer (its owner is told instead).
 */
export const MailChangeRequest = z.object({
  password: z.string().min(1).max(PASSWORD_MAX),
  email: Email,
})
export type MailChangeRequest = z.input<typeof MailChangeRequest>
export const MailChangeResponse = z.object({ status: z.literal('sent') })
export type MailChangeResponse = z.infer<typeof MailChangeResponse>
/** GET /api/mail_change.php (signed in): the pending address; DELETE cancels it (same answer). */
export const MailChangePending = z.object({ pending_email: z.string().nullable() })
export type MailChangePending = z.infer<typeof MailChangePending>
/**
 * POST /api/mail_change.php?do=1 (no session needed): applies the change.
 * 400 invalid_token (field token); 409 email_taken when the address was taken meanwhile.
 */
export const MailChangeDoRequest = z.object({ token: MailToken })
export type MailChangeDoRequest = z.input<typeof MailChangeDoRequest>
export const MailChangeDoResponse = z.object({ status: z.literal('done'), email: z.string() })
export type MailChangeDoResponse = z.infer<typeof MailChangeDoResponse>

/**
 * POST /api/profileimage.php: multipart, field `file` once or more (at most
 * IMAGE_MAX_FILES, IMAGE_MAX_BYTES for the whole request: 413
 * file_too_large); png or jpeg decided by the bytes (400 invalid_image),
 * at most IMAGE_MAX_PIXELS (400 image_too_large), IMAGE_MAX_PER_MEMBER in
 * all (400 too_many_images), all with field `file`. Pictures are re-encoded
 * as JPEG without metadata under server-made names, with a thumbnail; the
 * first becomes the main picture. GET lists them; PUT {id} makes one the
 * main picture; DELETE {id} removes one (404 for another member's). Every
 * call answers the member's pictures.
 */
export const ProfileImagesResponse = z.object({
  images: z.array(Image),
  main_image: z.object({ id: z.number().int(), thumb_filename: z.string() }).nullable(),
})
export type ProfileImagesResponse = z.infer<typeof ProfileImagesResponse>
export const ProfileImageIdRequest = z.object({ id: Id })
export type ProfileImageIdRequest = z.input<typeof ProfileImageIdRequest>
/** PUT /api/privatephoto.php: the member's picture `id` private (locked for others) or public. */
export const PhotoPrivacyRequest = z.object({ id: Id, private: z.boolean() })
export type PhotoPrivacyRequest = z.input<typeof PhotoPrivacyRequest>
/** POST /api/photounlock.php: unlock another member's private picture `id` (credits). */
export const UnlockPhotoRequest = z.object({ id: Id })
export type UnlockPhotoRequest = z.input<typeof UnlockPhotoRequest>
/**
 * The unlocked picture, the balance after, and what this request charged:
 * the price the first time, 0 when the viewer had unlocked it already.
 * 402 (short of credits) has the paid send's body (InsufficientCredits).
 */
export const UnlockPhotoResponse = z.object({
  image: Image,
  credits: z.number().int(),
  charged: z.number().int(),
})
export type UnlockPhotoResponse = z.infer<typeof UnlockPhotoResponse>
/** GET /api/photounlock.php: who unlocked the member's private pictures, newest first. */
export const PhotoUnlocksResponse = z.object({
  unlocks: z.array(
    z.object({
      image_id: z.number().int(),
      member: z.object({ id: z.number().int(), name: z.string() }),
      unlocked_at: z.string(),
    }),
  ),
})
export type PhotoUnlocksResponse = z.infer<typeof PhotoUnlocksResponse>

const Region = z.object({ id: z.string(), name: z.string() })
/** GET /api/regions.php: regions per country (ISO 3166-2 ids). */
export const RegionsResponse = z.object({ region_data: z.record(z.string(), z.array(Region)) })
export type RegionsResponse = z.infer<typeof RegionsResponse>
/** GET /api/interests.php: interest ids (the client translates them). */
export const InterestsResponse = z.object({ interests: z.array(z.string()) })
export type InterestsResponse = z.infer<typeof InterestsResponse>
/** GET /api/profile_fields.php: allowed values per select field (gender and settings.visible_profile_fields). */
export const ProfileFieldsResponse = z.object({
  allowed_values: z.record(z.string(), z.array(z.string())),
})
export type ProfileFieldsResponse = z.infer<typeof ProfileFieldsResponse>

/** GET /api/geocode.php: lat −90…90, lon −180…180 (400 field lat/lon). */
// An empty parameter is missing, not 0 (Number('') is 0); NaN and Infinity fail z.number().
const coordinate = (limit: number) =>
  z.string().trim().min(1).transform(Number).pipe(z.number().min(-limit).max(limit))
export const GeocodeQuery = z.object({ lat: coordinate(90), lon: coordinate(180) })
export type GeocodeQuery = z.input<typeof GeocodeQuery>
/** Nulls where the place is outside the known countries/regions (no network call is made). */
export const GeocodeResponse = z.object({
  country: z.string().nullable(),
  countryregion: z.string().nullable(),
  city: z.string().nullable(),
})
export type GeocodeResponse = z.infer<typeof GeocodeResponse>

/**
 * GET /api/_dev/mail.php: stored mails, newest first; 404 unless mail is
 * store-only (no SMTP_URL). Every mail on a development configuration (demo
 * seed on, not NODE_ENV=production); elsewhere the signed-in member's own
 * mails but reset mails, and 404 without a session.
 */
export const DevMail = z.object({
  id: z.number().int(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
})
export type DevMail = z.infer<typeof DevMail>
export const DevMailResponse = z.object({ mails: z.array(DevMail) })
export type DevMailResponse = z.infer<typeof DevMailResponse>

/**
 * 400 of a new password (sign-up, reset) that is too easy to guess: shorter
 * than PASSWORD_MIN, on the common-password list, or the email address.
 */
export const WEAK_PASSWORD = 'weak_password'
export const WeakPasswordError = z.object({
  error: z.literal(WEAK_PASSWORD),
  field: z.literal('password'),
  message: z.string().optional(),
  reason: z.enum(['too_short', 'common', 'equals_email']),
  min_length: z.number().int(),
})
export type WeakPasswordError = z.infer<typeof WeakPasswordError>

/** 429 rate_limited comes with a Retry-After header (seconds). */
export const RATE_LIMITED = 'rate_limited'
