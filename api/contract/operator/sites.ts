// Console endpoints of the sites part (see api/contract/operator/staff.ts for
// the rules every console endpoint follows).

export const sitesEndpoints = {} as const
