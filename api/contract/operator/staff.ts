// The operator's console: staff sign-in, who is signed in, the audit log and
// the staff list. Every console endpoint answers 404 to anyone without a
// staff session (members included), like a path that does not exist.
import { z } from 'zod'
import { Id } from '../common.ts'
import { TOKEN_MAX } from '../rules/limits.ts'
import { CAPABILITIES, type Capability, STAFF_ROLES } from '../rules/staff.ts'

const capabilityNames = Object.keys(CAPABILITIES) as [Capability, ...Capability[]]

export const StaffLoginRequest = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
  /** The authenticator app's current 6-digit code. */
  code: z.string().regex(/^\d{6}$/, 'six digits'),
})
export type StaffLoginRequest = z.infer<typeof StaffLoginRequest>

/**
 * POST /api/operator/unlock.php (open, like the sign-in): the link mailed to
 * a staff member whose sign-in was refused with 429 (api/operator/unlock.ts),
 * opened on /operator/unlock. Clears the account's sign-in limits, for every
 * address; signs nobody in. 400 invalid_token (field token) for a used,
 * expired or unknown token.
 */
export const StaffUnlockRequest = z.object({ token: z.string().min(1).max(TOKEN_MAX) })
export const StaffUnlockResponse = z.object({ status: z.literal('done') })
export type StaffUnlockResponse = z.infer<typeof StaffUnlockResponse>

export const StaffMe = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.enum(STAFF_ROLES)),
  capabilities: z.array(z.enum(capabilityNames)),
})
export type StaffMe = z.infer<typeof StaffMe>

export const StaffLogoutResponse = z.object({ status: z.literal('done') })

export const AuditEntry = z.object({
  id: z.number().int(),
  created_at: z.string(),
  /** Who acted; null when no person did but the machine (a `face_match = auto` approval). */
  staff: z.object({ id: z.number().int(), name: z.string(), email: z.string() }).nullable(),
  action: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
})
export type AuditEntry = z.infer<typeof AuditEntry>

export const AuditQuery = z.object({
  /** Entries older than this id (the next page). */
  before: Id.optional(),
  staff: Id.optional(),
  target_type: z.string().min(1).max(32).optional(),
  target_id: z.string().min(1).max(64).optional(),
})
export const AuditResponse = z.object({
  entries: z.array(AuditEntry),
  /** The `before` of the next page, or null at the end. */
  next: z.number().int().nullable(),
})
export type AuditResponse = z.infer<typeof AuditResponse>

export const StaffEntry = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.enum(STAFF_ROLES)),
  created_at: z.string(),
  disabled: z.boolean(),
})
export type StaffEntry = z.infer<typeof StaffEntry>
export const StaffListResponse = z.object({ staff: z.array(StaffEntry) })
export type StaffListResponse = z.infer<typeof StaffListResponse>

export const StaffCreateRequest = z.object({
  email: z.email().max(254),
  name: z.string().trim().min(1).max(100),
  roles: z.array(z.enum(STAFF_ROLES)).min(1).max(4),
})
/** The new account's one-time password and TOTP setup, shown once to the admin who created it. */
export const StaffCreateResponse = z.object({
  staff: StaffEntry,
  password: z.string(),
  totp_secret: z.string(),
  totp_uri: z.string(),
})
export type StaffCreateResponse = z.infer<typeof StaffCreateResponse>

export const StaffUpdateRequest = z.object({
  id: Id,
  roles: z.array(z.enum(STAFF_ROLES)).min(1).max(4).optional(),
  disabled: z.boolean().optional(),
  reason: z.string().trim().min(1).max(500),
})

export const staffEndpoints = {
  operatorLogin: {
    method: 'POST',
    path: '/api/operator/login.php',
    body: StaffLoginRequest,
    response: StaffMe,
  },
  operatorUnlock: {
    method: 'POST',
    path: '/api/operator/unlock.php',
    body: StaffUnlockRequest,
    response: StaffUnlockResponse,
  },
  operatorLogout: {
    method: 'POST',
    path: '/api/operator/logout.php',
    response: StaffLogoutResponse,
  },
  operatorMe: { method: 'GET', path: '/api/operator/me.php', response: StaffMe },
  operatorAudit: {
    method: 'GET',
    path: '/api/operator/audit.php',
    query: AuditQuery,
    response: AuditResponse,
    capability: 'audit',
  },
  operatorStaff: {
    method: 'GET',
    path: '/api/operator/staff.php',
    response: StaffListResponse,
    capability: 'staff.manage',
  },
  operatorStaffCreate: {
    method: 'POST',
    path: '/api/operator/staff.php',
    body: StaffCreateRequest,
    response: StaffCreateResponse,
    capability: 'staff.manage',
  },
  operatorStaffUpdate: {
    method: 'PUT',
    path: '/api/operator/staff.php',
    body: StaffUpdateRequest,
    response: StaffEntry,
    capability: 'staff.manage',
  },
} as const
