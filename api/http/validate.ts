import { zValidator } from '@hono/zod-validator'
import type { ValidationTargets } from 'hono'
import type { z } from 'zod'
import type { EndpointDef } from '../contract/endpoints.ts'
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

/** Where an endpoint of the table is routed inside the `/api` sub-app. */
export const pathOf = (endpoint: EndpointDef): string => endpoint.path.replace(/^\/api(?=\/)/, '')

/** The query validator of an endpoint of the table (400 naming the field). */
export const queryOf = <S extends z.ZodType>(endpoint: { query: S }) =>
  validate('query', endpoint.query)

/** The JSON body validator of an endpoint of the table (400 naming the field). */
export const bodyOf = <S extends z.ZodType>(endpoint: { body: S }) =>
  validate('json', endpoint.body)
