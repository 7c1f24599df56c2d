// Console endpoints of the members part (see api/contract/operator/staff.ts for
// the rules every console endpoint follows).

export const membersEndpoints = {} as const
