// Visitors' calls of the sync worker: the members a lander shows and the
// public complaints form. Nothing here is stored: a lander's members are
// asked for on each visit (a guest has no store worth keeping), and a
// complaint is sent once, while the visitor waits for its reference.
import type { ComplaintRequest, LanderVisitRequest } from '../../api/contract/index.ts'
import { request } from '../core/http.ts'

export const trafficHandlers = () => ({
  landerMembers: (member?: number) =>
    request('landerMembers', member === undefined ? {} : { query: { member } }),
  fileComplaint: (body: ComplaintRequest) => request('complaint', { body }),
  /** A lander was shown (the server decides whether it counts); best effort, nothing kept. */
  landerVisit: (body: LanderVisitRequest) => request('landerVisit', { body }),
})
