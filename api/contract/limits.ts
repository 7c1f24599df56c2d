// Moved to rules/limits.ts; re-exported while callers move over.
export * from './rules/limits.ts'
