/** A member id in a path (spec §8 "Page Not Found"); the rule lives with the server's. */
export { parseMemberId } from '../../api/contract/rules/member-id.ts'
