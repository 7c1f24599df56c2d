import { zValidator } from '@hono/zod-validator'
import type { ValidationTargets } from 'hono'
import type { z } from 'zod'
import { ApiFailure } from './errors.ts'

/**
 * zValidator with the API's 400 shape: `{error: 'invalid_input', field, message}`
 * naming the first bad field, so a client (and a person reading the network
 * tab) knows what to fix. Bad input never reaches a handler.
 */
export const validate = <T extends keyof ValidationTargets, S extends z.ZodType>(
  target: T,
  schema: S,
) =>
  zValidator(target, schema, (result) => {
    if (!result.success) {
      const issue = result.error.issues[0]
      const field = issue?.path.map(String).join('.') || target
      throw new ApiFailure(400, 'invalid_input', field, `${field}: ${issue?.message ?? 'invalid'}`)
    }
  })
