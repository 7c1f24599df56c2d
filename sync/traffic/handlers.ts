// Visitors' calls of the sync worker: the members a lander shows, the
// public complaints form, and a decision's statement of reasons with its
// appeal. Nothing here is stored: a lander's members are asked for on each
// visit (a guest has no store worth keeping), a complaint or an appeal is
// sent once, while the visitor waits for its answer, and a statement is read
// by its mailed token, without a session (a suspended member has none).
import type { ComplaintRequest, LanderVisitRequest } from '../../api/contract/index.ts'
import { type BodyOf, request } from '../core/http.ts'

export const trafficHandlers = () => ({
  landerMembers: (member?: number) =>
    request('landerMembers', member === undefined ? {} : { query: { member } }),
  fileComplaint: (body: ComplaintRequest) => request('complaint', { body }),
  /** A lander was shown (the server decides whether it counts); best effort, nothing kept. */
  landerVisit: (body: LanderVisitRequest) => request('landerVisit', { body }),
  /** The statement of reasons of a decision, by the token of its mail. */
  statement: (token: string) => request('statement', { query: { token } }),
  /** The appeal against it, with the same token; another moderator decides. */
  appeal: (body: BodyOf<'appeal'>) => request('appeal', { body }),
})
