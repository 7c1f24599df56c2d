import { z } from 'zod'

export const LoginRequest = z.object({
  email: z
    .string()
    .trim()
    .min(1)
    .max(254)
    // PostgreSQL text cannot hold NUL: refused here rather than failing the query.
    .refine((s) => !s.includes('\0'), 'must not contain NUL'),
  password: z.string().min(1).max(1024),
})
export type LoginRequest = z.infer<typeof LoginRequest>

export const LogoutResponse = z.object({ status: z.literal('done') })
export type LogoutResponse = z.infer<typeof LogoutResponse>
