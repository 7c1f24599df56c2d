// The console's sections, each shown only to staff whose roles allow it (the
// server checks again on every call: api/contract/rules/staff.ts).

import type { Capability } from '../../../api/contract/rules/staff.ts'
import { m } from '../../../messages/paraglide/messages.js'

export interface ConsoleSection {
  to: string
  label: () => string
  /** What the section is for, on the overview's card. */
  about: () => string
  /** Null: every staff member. */
  capability: Capability | null
}

export const CONSOLE_SECTIONS: ConsoleSection[] = [
  { to: '/operator', label: m.op_nav_overview, about: m.op_about_overview, capability: null },
  {
    to: '/operator/queue',
    label: m.op_mod_nav_queue,
    about: m.op_mod_about_queue,
    capability: 'moderate',
  },
  {
    to: '/operator/dsa',
    label: m.op_mod_nav_dsa,
    about: m.op_mod_about_dsa,
    capability: 'reports.dsa',
  },
  {
    to: '/operator/members',
    label: m.op_mem_nav_label,
    about: m.op_mem_nav_about,
    capability: 'members.view',
  },
  { to: '/operator/sites', label: m.op_site_nav, about: m.op_site_about, capability: 'sites.edit' },
  {
    to: '/operator/reports',
    label: m.op_site_nav_reports,
    about: m.op_site_about_reports,
    capability: 'reports.traffic',
  },
  {
    to: '/operator/jobs',
    label: m.op_site_nav_jobs,
    about: m.op_site_about_jobs,
    capability: 'jobs',
  },
  { to: '/operator/audit', label: m.op_nav_audit, about: m.op_about_audit, capability: 'audit' },
  {
    to: '/operator/staff',
    label: m.op_nav_staff,
    about: m.op_about_staff,
    capability: 'staff.manage',
  },
]

export const sectionsFor = (capabilities: readonly string[]) =>
  CONSOLE_SECTIONS.filter((s) => s.capability === null || capabilities.includes(s.capability))

const ROLE_NAMES: Record<string, () => string> = {
  moderator: m.op_role_moderator,
  support: m.op_role_support,
  finance: m.op_role_finance,
  admin: m.op_role_admin,
}
export const roleName = (role: string) => ROLE_NAMES[role]?.() ?? role
