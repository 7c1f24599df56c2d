import { zValidator } from '@hono/zod-validator'
import type { ValidationTargets } from 'hono'
import type { z } from 'zod'
import type { EndpointDef } from '../contract/endpoints.ts'
import { ApiFailure } from './errors.ts'

/**
 * Text PostgreSQL cannot store: a UTF-16 surrogate without its partner (JSON
 * can carry it, `"\ud800"`, UTF-8 cannot) and the NUL character (text and
 * jsonb refuse U+0000: 22021 / 22P05, a 500 before this check).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text)

/**
 * Where a parsed input holds text that is not well-formed Unicode (a lone
 * surrogate) or a NUL, in a value or in a key: the dotted path of the first such
 * string, or null. PostgreSQL stores UTF-8 only: a jsonb column refuses such
 * a string (22P02, a 500 before this check) and a text column silently turns
 * it into U+FFFD. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function malformedTextPath(value: unknown): string | null {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }]
  while (stack.length > 0) {
    const item = stack.pop()!
    if (typeof item.value === 'string') {
      if (unstorable(item.value)) return item.path.join('.')
    } else if (typeof item.value === 'object' && item.value !== null) {
      const entries = Object.entries(item.value)
      // A bad key is named by its parent: the key itself cannot be printed.
      if (entries.some(([k]) => unstorable(k))) return item.path.join('.')
      for (const [k, v] of entries.reverse()) stack.push({ value: v, path: [...item.path, k] })
    }
  }
  return null
}

/** 400 naming the field of the first text that is not well-formed Unicode. */
function refuseMalformedText(data: unknown, target: string): void {
  const path = malformedTextPath(data)
  if (path === null) return
  const field = path || target
  throw new ApiFailure(400, 'invalid_input', field, `${field}: not well-formed Unicode text`)
}

function firstIssue(
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
  fallback: string,
): ApiFailure {
  const issue = error.issues[0]
  const field = issue?.path.map(String).join('.') || fallback
  return new ApiFailure(400, 'invalid_input', field, `${field}: ${issue?.message ?? 'invalid'}`)
}

/**
 * zValidator with the API's 400 shape: `{error: 'invalid_input', field, message}`
 * naming the first bad field, so a client (and a person reading the network
 * tab) knows what to fix. Bad input never reaches a handler, and neither does
 * text that is not well-formed Unicode, whichever field holds it.
 */
export const validate = <T extends keyof ValidationTargets, S extends z.ZodType>(
  target: T,
  schema: S,
) =>
  zValidator(target, schema, (result) => {
    if (!result.success) throw firstIssue(result.error, target)
    refuseMalformedText(result.data, target)
  })

/**
 * A body checked against a schema the query picks (POST /api/user.php?new=1,
 * ?do=1 calls): the same rules and 400s as `validate`.
 */
export function parseOr400<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw firstIssue(parsed.error, 'body')
  refuseMalformedText(parsed.data, 'body')
  return parsed.data
}

/** Where an endpoint of the table is routed inside the `/api` sub-app. */
export const pathOf = (endpoint: EndpointDef): string => endpoint.path.replace(/^\/api(?=\/)/, '')

/** The query validator of an endpoint of the table (400 naming the field). */
export const queryOf = <S extends z.ZodType>(endpoint: { query: S }) =>
  validate('query', endpoint.query)

/** The JSON body validator of an endpoint of the table (400 naming the field). */
export const bodyOf = <S extends z.ZodType>(endpoint: { body: S }) =>
  validate('json', endpoint.body)
