// Console endpoints of the moderation part (see api/contract/operator/staff.ts for
// the rules every console endpoint follows).

export const moderationEndpoints = {} as const
