// Staff of the operator's console: roles and what each may do. The server
// checks every endpoint against these (api/operator/auth.ts); the console
// shows only what the signed-in staff member can use.

export const STAFF_ROLES = ['moderator', 'support', 'finance', 'admin'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

/**
 * What a role allows. Admins can do everything; the others get what their
 * work needs and no more (least privilege):
 * - moderator: the moderation queue and its actions, appeals, DSA figures;
 * - support: find members and look at them, end their sessions, adjust
 *   credits with a reason, data requests (export, deletion);
 * - finance: transactions and the ledger, adjustments, refunds, the
 *   traffic and revenue report.
 */
export const CAPABILITIES = {
  moderate: ['moderator'],
  'members.view': ['moderator', 'support', 'finance'],
  'members.sessions': ['support'],
  'members.data': ['support'],
  'credits.adjust': ['support', 'finance'],
  'payments.refund': ['finance'],
  'reports.traffic': ['finance'],
  'reports.dsa': ['moderator'],
  'sites.edit': [],
  jobs: [],
  audit: [],
  'staff.manage': [],
} as const satisfies Record<string, readonly StaffRole[]>
export type Capability = keyof typeof CAPABILITIES

export function can(roles: readonly string[], capability: Capability): boolean {
  if (roles.includes('admin')) return true
  const allowed: readonly string[] = CAPABILITIES[capability]
  return roles.some((r) => allowed.includes(r))
}

/** Every capability of these roles, for the console's menu. */
export const capabilitiesOf = (roles: readonly string[]): Capability[] =>
  (Object.keys(CAPABILITIES) as Capability[]).filter((c) => can(roles, c))

/**
 * A console session ends after 30 minutes without use and 12 hours after its
 * sign-in, whatever the use: staff see every member's data, so a console left
 * open on a desk closes itself, and a stolen cookie is worth one working day.
 */
export const STAFF_IDLE_S = 1800
export const STAFF_ABSOLUTE_S = 12 * 3600
